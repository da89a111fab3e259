// A scripted model for kata 3: replies from a list (or computed from the request), and a record of
// every request it received, so a spec can check what the model was shown at each step.
import type { Model, ModelReply, ModelRequest } from "@impl/03-agent-loop";

export type ScriptEntry = ModelReply | ((request: ModelRequest, index: number) => ModelReply | Promise<ModelReply>);

/** What the model was asked: a deep copy taken at the moment of the request (signal left out). */
export type RecordedRequest = Omit<ModelRequest, "signal">;

export interface ScriptedModel extends Model {
  requests: RecordedRequest[];
  /** The signal of every request, in order. */
  signals: AbortSignal[];
}

/** No run in the kata's specs needs more; a loop that keeps asking is stopped here, not hung. */
export const MAX_SCRIPTED_REQUESTS = 1000;

/**
 * `script` is a list (entry i answers request i; the request after the last entry throws
 * "scripted model: out of replies") or a function of the request and its index.
 */
export function scriptedModel(script: ScriptEntry[] | ((request: ModelRequest, index: number) => ModelReply | Promise<ModelReply>)): ScriptedModel {
  const requests: RecordedRequest[] = [];
  const signals: AbortSignal[] = [];
  const model = async (request: ModelRequest): Promise<ModelReply> => {
    const index = requests.length;
    if (index >= MAX_SCRIPTED_REQUESTS) throw new Error(`scripted model: more than ${MAX_SCRIPTED_REQUESTS} requests`);
    requests.push(structuredClone({ messages: request.messages, tools: request.tools, toolChoice: request.toolChoice }));
    signals.push(request.signal);
    let entry: ScriptEntry;
    if (typeof script === "function") entry = script;
    else {
      if (index >= script.length) throw new Error(`scripted model: out of replies (request #${index + 1})`);
      entry = script[index];
    }
    const reply = typeof entry === "function" ? await entry(request, index) : entry;
    return structuredClone(reply);
  };
  return Object.assign(model, { requests, signals });
}

let nextId = 0;

export type CallSpec = [name: string, args?: object | string | null, id?: string];

/** Terse replies: `reply.calls(["get_weather", { city: "北京" }])`, `reply.text("done")`. */
export const reply = {
  text(content: string, usage?: { input_tokens: number; output_tokens: number }): ModelReply {
    return usage ? { content, usage } : { content };
  },
  /** One reply carrying these calls, in order; ids are "call_<n>" unless given. */
  calls(...calls: CallSpec[]): ModelReply {
    return {
      content: "",
      tool_calls: calls.map(([name, args, id]) => ({
        id: id ?? `call_${++nextId}`,
        name,
        arguments: args === undefined ? {} : (args as Record<string, unknown> | string | null),
      })),
    };
  },
  /** The same reply, with a usage report. */
  withUsage(r: ModelReply, input_tokens: number, output_tokens: number): ModelReply {
    return { ...r, usage: { input_tokens, output_tokens } };
  },
};

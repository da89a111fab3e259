// Tools with scripted behaviour for kata 3. Every tool is a spy: it counts its executions, the
// arguments it got, and how many of its executions were running at the same time.
import type { JsonSchema, Tool, ToolContext } from "@impl/03-agent-loop";
import type { FakeClock } from "./clock.ts";

// Sensitive values planted in tool output and errors; none may reach the messages or the trace.
export const SECRET_KEY = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2";
export const BEARER = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig";
export const CN_PHONE = "13812345678";
export const INTL_PHONE = "+44 20 7946 0958";
export const ID_NUMBER = "11010519491231002X";
export const EMAIL = "zhang.san@example.com";
export const SOURCE_PATH = "/home/deploy/app/src/tools/weather.ts";

export interface SpyTool extends Tool {
  /** How many times `execute` was called (retries included). */
  executions: number;
  /** The arguments of every execution, in order. */
  calls: Array<Record<string, unknown>>;
  /** The context of every execution, in order. */
  contexts: ToolContext[];
  inFlight: number;
  maxInFlight: number;
}

export type Behaviour = (args: Record<string, unknown>, ctx: ToolContext, execution: number) => unknown;

export const ANY_OBJECT: JsonSchema = { type: "object" };

/** A spy tool whose `execute` does `behaviour`; `extra` sets parameters, dangerous, timeoutMs, retries... */
export function spyTool(name: string, behaviour: Behaviour, extra: Partial<Tool> = {}): SpyTool {
  const tool: SpyTool = {
    name,
    description: `test tool ${name}`,
    parameters: ANY_OBJECT,
    executions: 0,
    calls: [],
    contexts: [],
    inFlight: 0,
    maxInFlight: 0,
    ...extra,
    execute(args, ctx) {
      tool.executions++;
      tool.calls.push(args);
      tool.contexts.push(ctx);
      tool.inFlight++;
      tool.maxInFlight = Math.max(tool.maxInFlight, tool.inFlight);
      let result: unknown;
      try {
        result = behaviour(args, ctx, tool.executions);
      } catch (error) {
        tool.inFlight--;
        throw error;
      }
      if (result instanceof Promise) {
        return result.finally(() => {
          tool.inFlight--;
        });
      }
      tool.inFlight--;
      return result;
    },
  };
  return tool;
}

/** An Error whose message leaks a secret, an e-mail and a path, and whose stack names files. */
export function leakyError(message = `connect failed for ${EMAIL} with key ${SECRET_KEY} (config ${SOURCE_PATH}:12:7)`): Error {
  const error = new Error(message);
  error.stack = `Error: ${message}\n    at fetchWeather (${SOURCE_PATH}:42:13)\n    at async run (file:///home/deploy/app/src/loop.ts:7:3)`;
  return error;
}

/** An error marked transient in the documented way: `retryable: true`. */
export function transientError(message = "503 service unavailable"): Error {
  return Object.assign(new Error(message), { retryable: true });
}

export const tools = {
  /** Succeeds at once with `result` (default `{ tool: name }`). */
  ok: (name: string, result: unknown = { tool: name }, extra: Partial<Tool> = {}) => spyTool(name, () => result, extra),
  /** Returns `result(args)`. */
  echo: (name: string, extra: Partial<Tool> = {}) => spyTool(name, (args) => ({ echo: args }), extra),
  /** Throws a plain (non-retryable) error with a stack and secrets in its message. */
  throws: (name: string, error: () => unknown = () => leakyError(), extra: Partial<Tool> = {}) =>
    spyTool(name, () => {
      throw error();
    }, extra),
  /** Rejects (async) with a transient, retryable error every time. */
  transient: (name: string, extra: Partial<Tool> = {}) => spyTool(name, async () => {
    throw transientError();
  }, extra),
  /** Never settles. */
  hang: (name: string, extra: Partial<Tool> = {}) => spyTool(name, () => new Promise(() => {}), extra),
  /** Takes `ms` of fake time, then succeeds with `result`. */
  slow: (name: string, clock: FakeClock, ms: number, result: unknown = { tool: name }, extra: Partial<Tool> = {}) =>
    spyTool(name, async (_args, ctx) => {
      await clock.sleep(ms, ctx.signal);
      return result;
    }, extra),
  /** Fails `failures` times with a retryable error, then succeeds with `result`. */
  flaky: (name: string, failures: number, result: unknown = { tool: name }, extra: Partial<Tool> = {}) =>
    spyTool(name, async (_args, _ctx, execution) => {
      if (execution <= failures) throw transientError(`transient failure ${execution}`);
      return result;
    }, extra),
  /** Returns a string of `chars` characters. */
  huge: (name: string, chars: number, extra: Partial<Tool> = {}) => spyTool(name, () => "x".repeat(chars), extra),
  /** Returns the completion signal `{ $finish: answer }`. */
  finish: (name: string, answer: string, extra: Partial<Tool> = {}) => spyTool(name, () => ({ $finish: answer }), extra),
};

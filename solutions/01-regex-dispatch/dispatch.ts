// From text to results: parse, look every call up in the whitelist, bind its arguments, run it,
// and turn every way of failing into a result. Nothing a model writes or a tool throws escapes.
import { parseToolCalls } from "./parse.ts";
import { setOwn } from "./literals.ts";
import {
  BadArgumentsError,
  type CallResult, type DispatchResult, type ParsedCall, type Registry, type ToolDefinition, type ToolError, type Value,
} from "./types.ts";

export function dispatch(text: string, registry: Registry): DispatchResult {
  const { calls, errors, prose } = parseToolCalls(text);
  if (calls.length === 0 && errors.length === 0) return { text, results: [] };

  const results: CallResult[] = [
    ...calls.map((call) => runCall(call, registry)),
    ...errors.map((e): CallResult => ({ call: null, span: e.span, ok: false, error: { code: "parse_error", message: e.message } })),
  ];
  results.sort((a, b) => a.span.start - b.span.start);
  return { text: prose, results };
}

function runCall(call: ParsedCall, registry: Registry): CallResult {
  const failed = (error: ToolError): CallResult => ({ call, span: call.span, ok: false, error });

  const tool = registry.lookup(call.name);
  if (!tool) return failed({ code: "unknown_tool", message: `no tool named '${call.name.trim()}'` });

  const bound = bindArguments(tool, call);
  if (typeof bound === "string") return failed({ code: "bad_arguments", message: bound });

  try {
    return { call, span: call.span, ok: true, value: tool.run(bound) };
  } catch (thrown) {
    const kind = kindOf(thrown);
    if (kind === "bad_arguments") return failed({ code: "bad_arguments", message: safeMessage(thrown as Error) });
    return failed({ code: "tool_error", ...describeThrown(thrown, kind === "error") });
  }
}

/**
 * `instanceof` only: an Error that merely calls itself "BadArgumentsError" is another Error. A
 * thrown Proxy can make `instanceof` itself throw: such a value counts as no Error at all.
 */
function kindOf(thrown: unknown): "bad_arguments" | "error" | "other" {
  try {
    if (thrown instanceof BadArgumentsError) return "bad_arguments";
    return thrown instanceof Error ? "error" : "other";
  } catch {
    return "other";
  }
}

/**
 * Positional arguments fill the parameters in order, keywords by name. Returns the reason on
 * failure, which names parameters by the tool's own names and arguments by their position, never
 * by what the model wrote (a model may paste a secret anywhere, a keyword's name included).
 */
export function bindArguments(tool: ToolDefinition, call: ParsedCall): Record<string, Value> | string {
  const params = tool.params;
  if (call.args.length > params.length) {
    return `${tool.name} takes at most ${params.length} argument(s), got ${call.args.length}`;
  }
  const bound: Record<string, Value> = {};
  call.args.forEach((value, i) => setOwn(bound, params[i].name, value));
  for (const key of Object.keys(call.kwargs)) {
    if (!params.some((p) => p.name === key)) {
      const names = params.map((p) => p.name).join(", ") || "none";
      return `${tool.name} has no parameter for a keyword argument it was given (its parameters: ${names})`;
    }
    if (Object.hasOwn(bound, key)) return `${tool.name} got '${key}' twice`;
    setOwn(bound, key, call.kwargs[key]);
  }
  const missing = params.filter((p) => !p.optional && !Object.hasOwn(bound, p.name)).map((p) => p.name);
  if (missing.length > 0) return `${tool.name} is missing ${missing.join(", ")}`;
  return bound;
}

/** The type and message of whatever was thrown; never the stack, never a second throw. */
function describeThrown(thrown: unknown, isError: boolean): { type: string; message: string } {
  if (isError) return { type: safeString(() => String((thrown as Error).name)), message: safeMessage(thrown as Error) };
  return { type: typeof thrown, message: safeString(() => String(thrown)) };
}

function safeMessage(error: Error): string {
  return safeString(() => String(error.message));
}

/** A getter or a toString that throws must not break dispatch. */
function safeString(read: () => string): string {
  try {
    return read();
  } catch {
    return "";
  }
}

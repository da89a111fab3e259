// From text to results (README, task 4).
import type { DispatchResult, ParsedCall, Registry, ToolDefinition, Value } from "./types.ts";

/**
 * TODO: parse `text`; for each call in order look it up (`unknown_tool`), bind its arguments
 * (`bad_arguments`) and run it (`ok` + value, or `tool_error` / `bad_arguments` from what it
 * threw); each parse error becomes a `parse_error` result. `text` comes back untouched when
 * there is no call and no parse error. Never throws, whatever a tool does.
 */
export function dispatch(text: string, registry: Registry): DispatchResult {
  throw new Error("not implemented");
}

/**
 * TODO: bind a call's positional and keyword arguments to `tool.params`. Return the bound
 * arguments, or a string saying why they do not fit (too many, unknown keyword, given twice,
 * required one missing). That string never quotes what the model wrote (no value, no keyword
 * name): name the tool's own parameters and positions instead.
 */
export function bindArguments(tool: ToolDefinition, call: ParsedCall): Record<string, Value> | string {
  throw new Error("not implemented");
}

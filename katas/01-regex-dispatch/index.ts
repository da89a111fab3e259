// Kata 1, regex dispatch: the public API. Everything a spec (or a caller) may use is here.
export type {
  Value, Span, CallSyntax, ParsedCall, ParseError, ParseResult, ParamSpec, ToolDefinition,
  Registry, ErrorCode, ToolError, CallResult, DispatchResult,
} from "./types.ts";
export { BadArgumentsError } from "./types.ts";
export { parseToolCalls } from "./parse.ts";
export { createRegistry } from "./registry.ts";
export { dispatch } from "./dispatch.ts";
export { calculate, calculateTool } from "./calculate.ts";

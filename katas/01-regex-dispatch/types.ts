// The shapes every part of the kata agrees on. Nothing here runs: read it first.

/** A literal value, as JSON would have it (strings, numbers, booleans, null, arrays, objects). */
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** A half-open range of UTF-16 offsets into the parsed text: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Where a call came from: `"call"` for `name(args)` written in prose (or in a code fence),
 * `"list"` for a call inside a well-formed pythonic list `[a(x=1), b(y=2)]`, `"marker"` for a
 * `TOOL_CALL: {...}` line.
 */
export type CallSyntax = "call" | "list" | "marker";

export interface ParsedCall {
  /** The tool name exactly as written (dotted names included); the registry normalises it. */
  name: string;
  /** Positional arguments, in order. */
  args: Value[];
  /** Keyword arguments: a plain object whose own keys are the keyword names. */
  kwargs: Record<string, Value>;
  syntax: CallSyntax;
  /** The call itself: from the first character of its name to its closing parenthesis
   * (for a marker: from `TOOL_CALL` to the closing brace of its object). */
  span: Span;
}

/** A call that was started but cannot be read: cut off, refused or malformed marker. */
export interface ParseError {
  /** Says where and what went wrong; never quotes the text (it may hold a secret). */
  message: string;
  /** From the start of the call (or marker) to where reading stopped. */
  span: Span;
  /** The tool name when it could be read, else null. */
  name: string | null;
}

export interface ParseResult {
  /** Every complete call, in the order it appears in the text. */
  calls: ParsedCall[];
  /** Every call that was started but could not be read, in order. */
  errors: ParseError[];
  /** The text with every call, list and error cut out, and every code fence that holds nothing
   * else; the input itself (the very same string) when there is no call and no error. */
  prose: string;
}

/** One parameter of a tool, in positional order. */
export interface ParamSpec {
  name: string;
  /** Parameters are required unless marked optional. */
  optional?: boolean;
}

export interface ToolDefinition {
  name: string;
  params: ParamSpec[];
  /** Receives the bound arguments: one own key per parameter that was given. */
  run(args: Record<string, Value>): unknown;
}

export interface Registry {
  /** The tool registered under `name` after trimming and lower-casing, else undefined (also for
   * a `name` that is not a string: never a throw). */
  lookup(name: string): ToolDefinition | undefined;
  /** The registered names, normalised, in registration order. */
  names(): string[];
}

export type ErrorCode = "unknown_tool" | "parse_error" | "tool_error" | "bad_arguments";

export interface ToolError {
  code: ErrorCode;
  message: string;
  /** For `tool_error` only: the thrown error's `name` (or `typeof` of a non-Error). */
  type?: string;
}

export interface CallResult {
  /** The parsed call; null for a `parse_error`. */
  call: ParsedCall | null;
  span: Span;
  ok: boolean;
  /** What the tool returned, when ok. */
  value?: unknown;
  /** Why not, when not ok. */
  error?: ToolError;
}

export interface DispatchResult {
  /** The prose around the calls; the input itself, untouched, when there is no call and no
   * parse error. */
  text: string;
  /** One entry per call and per parse error, in text order. */
  results: CallResult[];
}

/** Thrown by a tool (or by the dispatcher) when the arguments are not acceptable. */
export class BadArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BadArgumentsError";
  }
}

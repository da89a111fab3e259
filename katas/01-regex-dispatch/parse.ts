// Finding tool calls in a model's reply (README, tasks 1 and 3).
import type { ParseResult } from "./types.ts";

/**
 * TODO: find every call in `text`, in order: `name(args)` (a dotted name glued to `(` or `（`,
 * then a valid argument list), pythonic lists `[a(x=1), b(y=2)]` and `TOOL_CALL: {...}` marker
 * lines. A call cut off by the end of the text is a parse error, never a call; an invalid but
 * complete argument list is prose. `prose` is the text without calls, lists, errors and the code
 * fences that hold nothing else (the input itself when there is no call and no error). Never
 * throws; linear time.
 */
export function parseToolCalls(text: string): ParseResult {
  throw new Error("not implemented");
}

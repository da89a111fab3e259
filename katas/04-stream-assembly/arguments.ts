// Reading a call's arguments: once, when the call has ended, strictly (README, task 3).
// (Not part of the public API: a suggested place.)
import type { ErrorCode } from "./types.ts";

export type ArgumentsRead =
  | { ok: true; value: Record<string, unknown>; raw: string }
  | { ok: false; code: ErrorCode; message: string; raw: string };

/** TODO: true for JSON data that is an object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  throw new Error("not implemented");
}

/**
 * TODO: the arguments of a call whose text came in `pieces`, in order: drop a leading `{}`
 * placeholder (only when the text after it holds something other than JSON whitespace), an empty
 * text is {}, else JSON.parse (invalid_json when it throws, not_an_object when it is not an
 * object). No repair of any kind. `raw` is the text read.
 */
export function readArguments(pieces: readonly string[]): ArgumentsRead {
  throw new Error("not implemented");
}

/** TODO: arguments that came as an object (absent: {}); `raw` is their JSON.stringify. */
export function readObjectArguments(value: unknown): ArgumentsRead {
  throw new Error("not implemented");
}

/**
 * TODO: the content of a `<tool_call>` tag (README, task 6): JSON.parse, an object, a non-empty
 * string `name`, `arguments` an object or absent.
 */
export function readTagContent(content: string):
  | { ok: true; name: string; value: Record<string, unknown>; raw: string }
  | { ok: false; code: ErrorCode; message: string; name?: string; raw: string } {
  throw new Error("not implemented");
}

/** TODO: how many bytes `text` takes in UTF-8. */
export function utf8Bytes(text: string): number {
  throw new Error("not implemented");
}

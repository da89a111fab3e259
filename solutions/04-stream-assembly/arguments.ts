// Reading a call's arguments: once, when the call has ended, with JSON.parse and nothing else.
//
// A parser that tries the text after every fragment is how runtimes dispatch early: `{"q": "a"}`
// parses before `, "limit": 10}` arrives. And a parser that repairs (closes the open string and
// brackets) turns a call cut off by the token limit into a plausible object that the model never
// finished. So the text is read exactly once, strictly, and only two things are not JSON.parse's:
// an empty text means "no arguments", and a leading `{}` placeholder is dropped (README, task 3).
import type { ErrorCode } from "./types.ts";

export type ArgumentsRead =
  | { ok: true; value: Record<string, unknown>; raw: string }
  | { ok: false; code: ErrorCode; message: string; raw: string };

/** JSON data that is an object: not null, not an array (JSON.parse makes nothing else). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const NOT_JSON_WHITESPACE = /[^ \t\n\r]/;

/** The arguments of a call whose text came in `pieces` (the fragments, in order). */
export function readArguments(pieces: readonly string[]): ArgumentsRead {
  let raw = pieces.join("");
  // Some servers send `{}` first and the whole object after it. Dropping it only when something
  // other than whitespace follows never changes a text that would have parsed: `{}` followed by
  // anything else is not JSON.
  const first = pieces.find((piece) => piece !== "");
  if (first === "{}" && NOT_JSON_WHITESPACE.test(raw.slice(2))) raw = raw.slice(2);
  if (raw === "") return { ok: true, value: {}, raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, code: "invalid_json", message: "the arguments are not valid JSON", raw };
  }
  if (!isObject(value)) return { ok: false, code: "not_an_object", message: "the arguments are JSON but not an object", raw };
  return { ok: true, value, raw };
}

/** Arguments that came as an object (Gemini, Ollama, Anthropic's `input`): checked, and written as JSON for `rawArguments`. */
export function readObjectArguments(value: unknown): ArgumentsRead {
  if (value === undefined || value === null) return { ok: true, value: {}, raw: "{}" };
  const raw = JSON.stringify(value);
  if (!isObject(value)) return { ok: false, code: "not_an_object", message: "the arguments are not an object", raw };
  return { ok: true, value, raw };
}

/** The `<tool_call>` envelope: `{"name": ..., "arguments": {...}}` (README, task 6). */
export function readTagContent(content: string):
  | { ok: true; name: string; value: Record<string, unknown>; raw: string }
  | { ok: false; code: ErrorCode; message: string; name?: string; raw: string } {
  let envelope: unknown;
  try {
    envelope = JSON.parse(content);
  } catch {
    return { ok: false, code: "invalid_json", message: "the tag does not hold valid JSON", raw: content };
  }
  if (!isObject(envelope)) return { ok: false, code: "not_an_object", message: "the tag holds JSON that is not an object", raw: content };
  const name = envelope.name;
  if (typeof name !== "string" || name === "") return { ok: false, code: "missing_name", message: "the call in the tag has no name", raw: content };
  const args = readObjectArguments(envelope.arguments);
  if (!args.ok) return { ...args, name, raw: content };
  return { ok: true, name, value: args.value, raw: args.raw };
}

/** How many bytes `text` takes in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The bytes `piece` adds to a text that ends with `before`. A character outside the BMP cut
 * between two fragments is one 4-byte character of the whole text, not two lone surrogates of 3.
 */
export function utf8BytesAfter(before: string, piece: string): number {
  const cutPair = (before.charCodeAt(before.length - 1) & 0xfc00) === 0xd800 && (piece.charCodeAt(0) & 0xfc00) === 0xdc00;
  return utf8Bytes(piece) - (cutPair ? 2 : 0);
}

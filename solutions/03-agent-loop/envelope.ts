// One uniform shape for every tool result, success or failure, so the model never has to guess
// whether a string is data or an error: {ok: true, data} or {ok: false, error: {code, message}}.
import { maskDeep, maskSecrets } from "./redact.ts";
import type { Envelope, ErrorCode } from "./types.ts";

/** Appended to text cut to the budget; N is the number of characters dropped. */
export const truncationMarker = (dropped: number) => `…[truncated ${dropped} chars]`;

/** Cuts `text` to `max` characters (code points, so no emoji is split) and says so. */
export function truncateText(text: string, max: number): string {
  // Cheap exit first: a string of at most `max` UTF-16 units has at most `max` code points.
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, max).join("") + truncationMarker(chars.length - max);
}

/**
 * The success envelope: data masked first, then cut, so a cut can never expose half a secret.
 * Throws when the result has no JSON text (a cycle, a BigInt, a function or a symbol).
 */
export function okEnvelope(result: unknown, maxChars: number): Envelope {
  const data = maskDeep(result === undefined ? null : result);
  const text: string | undefined = typeof data === "string" ? data : JSON.stringify(data);
  // A function or a symbol has no JSON text at all: like a cycle, it cannot go back to the model.
  if (text === undefined) throw new TypeError("the result has no JSON form");
  const cut = truncateText(text, maxChars);
  return { ok: true, data: cut === text ? data : cut };
}

export function errorEnvelope(code: ErrorCode, message: string, maxChars: number): Envelope {
  return { ok: false, error: { code, message: truncateText(maskSecrets(message), maxChars) } };
}

// Reading argument literals: one hand-written scanner, one pass, no regex over the input.
//
// Every reader takes the text and a position and returns either the value and where it ended,
// or a failure that says *why*: the text ran out ("truncated", the model was cut off), the text
// is not a literal ("malformed", most likely prose) or the nesting is too deep ("too_deep", a
// limit that keeps the recursion bounded). Callers need the difference: a truncated call is a
// parse_error, a malformed one is just prose.
import type { Value } from "./types.ts";

/** Arrays and objects nested deeper than this are refused, so recursion stays shallow. */
export const MAX_DEPTH = 64;

export type ReadFailure = { ok: false; kind: "truncated" | "malformed" | "too_deep"; at: number; message: string };
export type Read<T> = { ok: true; value: T; end: number } | ReadFailure;

/** The only whitespace of the kata: NBSP, VT, FF, U+2028 and the like are ordinary characters. */
export const WHITESPACE = new Set([" ", "\t", "\n", "\r", "\u3000"]);
/** Characters that end a bare word (it may stop there; what follows is the caller's business). */
const BARE_END = new Set([",", "，", ")", "）", "]", "}", "\n", "\r"]);
/** Characters a bare word may not contain: they start or end something else. */
const BARE_FORBIDDEN = new Set(["(", "（", "[", "{", '"', "'", "“", "”", "="]);
/** Characters a bare object key (or keyword name) may not contain. */
const KEY_END = new Set([...WHITESPACE, ...BARE_END, ...BARE_FORBIDDEN, ":", "："]);
const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", "“": "”" };
const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };
// Anchored and without nested quantifiers: it runs over one short word, never over the input.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^[0-9a-fA-F]+$/;

export const isComma = (c: string | undefined): boolean => c === "," || c === "，";
export const isOpenParen = (c: string | undefined): boolean => c === "(" || c === "（";
export const isCloseParen = (c: string | undefined): boolean => c === ")" || c === "）";

export function skipWhitespace(text: string, pos: number): number {
  while (pos < text.length && WHITESPACE.has(text[pos])) pos++;
  return pos;
}

const truncated = (at: number, message: string): ReadFailure => ({ ok: false, kind: "truncated", at, message });
const malformed = (at: number, message: string): ReadFailure => ({ ok: false, kind: "malformed", at, message });

/** Adds a key the way JSON.parse does: always an own property, even `__proto__`. */
export function setOwn(target: Record<string, Value>, key: string, value: Value): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Reads one literal starting at `pos` (leading whitespace allowed). */
export function readValue(text: string, pos: number, depth: number): Read<Value> {
  pos = skipWhitespace(text, pos);
  if (pos >= text.length) return truncated(pos, "expected a value, the text ended");
  const c = text[pos];
  if (c in CLOSING_QUOTE) return readString(text, pos);
  if (c === "[") return readArray(text, pos, depth + 1);
  if (c === "{") return readObject(text, pos, depth + 1);
  return readBare(text, pos);
}

/** A quoted string: "...", '...' or “...”, with backslash escapes; raw newlines are allowed. */
export function readString(text: string, pos: number): Read<string> {
  const close = CLOSING_QUOTE[text[pos]];
  const parts: string[] = [];
  let i = pos + 1;
  let chunkStart = i;
  while (i < text.length) {
    const c = text[i];
    if (c === close) {
      parts.push(text.slice(chunkStart, i));
      return { ok: true, value: parts.join(""), end: i + 1 };
    }
    if (c !== "\\") {
      i++;
      continue;
    }
    parts.push(text.slice(chunkStart, i));
    const escape = readEscape(text, i);
    if (!escape.ok) return escape;
    parts.push(escape.value);
    i = chunkStart = escape.end;
  }
  return truncated(text.length, "unterminated string");
}

/** `\n \r \t \b \f \v \0 \xHH \uHHHH \u{H...}`; a backslash before anything else keeps that character. */
function readEscape(text: string, pos: number): Read<string> {
  const c = text[pos + 1];
  if (c === undefined) return truncated(text.length, "the text ended inside an escape");
  if (c in SIMPLE_ESCAPES) return { ok: true, value: SIMPLE_ESCAPES[c], end: pos + 2 };
  if (c === "x") return readHex(text, pos + 2, 2, pos);
  if (c === "u") {
    if (text[pos + 2] !== "{") return readHex(text, pos + 2, 4, pos);
    // \u{...} holds at most 6 hex digits: never look further than that for the brace.
    let close = pos + 3;
    while (close < text.length && close < pos + 9 && text[close] !== "}") close++;
    if (close >= text.length) return truncated(text.length, "the text ended inside an escape");
    const hex = text.slice(pos + 3, close);
    const code = text[close] === "}" && HEX.test(hex) ? parseInt(hex, 16) : NaN;
    if (!(code <= 0x10ffff)) return malformed(pos, "bad \\u{...} escape");
    return { ok: true, value: String.fromCodePoint(code), end: close + 1 };
  }
  return { ok: true, value: c, end: pos + 2 };
}

function readHex(text: string, from: number, digits: number, escapeStart: number): Read<string> {
  const hex = text.slice(from, from + digits);
  const allHex = hex === "" || HEX.test(hex);
  if (hex.length === digits && allHex) {
    return { ok: true, value: String.fromCharCode(parseInt(hex, 16)), end: from + digits };
  }
  // Too few digits is the model being cut off only if the text ends right there.
  return hex.length < digits && allHex
    ? truncated(text.length, "the text ended inside an escape")
    : malformed(escapeStart, "bad hex escape");
}

/** `[v, v, ...]`, a trailing comma allowed. */
function readArray(text: string, pos: number, depth: number): Read<Value[]> {
  if (depth > MAX_DEPTH) return { ok: false, kind: "too_deep", at: pos, message: `nested deeper than ${MAX_DEPTH} levels` };
  const items: Value[] = [];
  let i = skipWhitespace(text, pos + 1);
  while (true) {
    if (i >= text.length) return truncated(i, "unterminated array");
    if (text[i] === "]") return { ok: true, value: items, end: i + 1 };
    const item = readValue(text, i, depth);
    if (!item.ok) return item;
    items.push(item.value);
    const after = readSeparator(text, item.end, "]");
    if (typeof after !== "number") return after;
    i = after;
  }
}

/** `{key: v, ...}` with quoted or bare keys, `:` or `：`, a trailing comma allowed. */
function readObject(text: string, pos: number, depth: number): Read<Record<string, Value>> {
  if (depth > MAX_DEPTH) return { ok: false, kind: "too_deep", at: pos, message: `nested deeper than ${MAX_DEPTH} levels` };
  const object: Record<string, Value> = {};
  let i = skipWhitespace(text, pos + 1);
  while (true) {
    if (i >= text.length) return truncated(i, "unterminated object");
    if (text[i] === "}") return { ok: true, value: object, end: i + 1 };
    const key = text[i] in CLOSING_QUOTE ? readString(text, i) : readKey(text, i);
    if (!key.ok) return key;
    const colon = skipWhitespace(text, key.end);
    if (colon >= text.length) return truncated(colon, "the text ended after an object key");
    if (text[colon] !== ":" && text[colon] !== "：") return malformed(colon, "expected ':' after an object key");
    const value = readValue(text, colon + 1, depth);
    if (!value.ok) return value;
    setOwn(object, key.value, value.value); // a repeated key keeps its last value, as in JSON.parse
    const after = readSeparator(text, value.end, "}");
    if (typeof after !== "number") return after;
    i = after;
  }
}

/** After an item: a comma (then maybe the closer), or the closer itself. Returns where to go on. */
function readSeparator(text: string, pos: number, closer: string): number | ReadFailure {
  const i = skipWhitespace(text, pos);
  if (i >= text.length) return truncated(i, "the text ended inside brackets");
  if (text[i] === closer) return i;
  if (isComma(text[i])) return skipWhitespace(text, i + 1);
  return malformed(i, `expected ',' or '${closer}'`);
}

/**
 * A bare key or keyword name: one or more characters, no whitespace, no delimiter. Callers only
 * call it before the end of the text (they check for that first), so an empty key is malformed.
 */
export function readKey(text: string, pos: number): Read<string> {
  let i = pos;
  while (i < text.length && !KEY_END.has(text[i])) i++;
  if (i === pos) return malformed(i, "expected a key");
  return { ok: true, value: text.slice(pos, i), end: i };
}

/**
 * A bare word: everything up to `, ， ) ） ] }` or a line break, trimmed. It becomes a number
 * when it looks like one, true/false/null (or True/False/None), else the string itself.
 * On failure `at` is the word's start: a caller that gives up on this text resumes there.
 */
function readBare(text: string, pos: number): Read<Value> {
  let i = pos;
  while (i < text.length && !BARE_END.has(text[i])) {
    // The message names the place, never the text: a model may have pasted a secret there.
    if (BARE_FORBIDDEN.has(text[i])) return malformed(pos, `a bare word may not contain the character at offset ${i}`);
    i++;
  }
  if (i >= text.length) return truncated(i, "the text ended inside a bare word");
  let end = i;
  while (end > pos && WHITESPACE.has(text[end - 1])) end--;
  if (end === pos) return malformed(pos, "expected a value");
  return { ok: true, value: bareValue(text.slice(pos, end)), end };
}

function bareValue(word: string): Value {
  switch (word) {
    case "true": case "True": return true;
    case "false": case "False": return false;
    case "null": case "None": return null;
  }
  if (NUMBER.test(word)) {
    const n = Number(word);
    if (Number.isFinite(n)) return n;
  }
  return word;
}

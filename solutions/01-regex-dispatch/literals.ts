// Reading argument literals: one hand-written scanner, one pass, no regex over the input.
//
// A `Scanner` holds the text and a position. Every reader starts at `pos`; when it succeeds it
// returns the value and leaves `pos` right after it. When it fails it returns `undefined` (no
// literal is undefined) and records why: the text ran out ("truncated", the model was cut off),
// the text is not a literal ("malformed", most likely prose) or the nesting is too deep
// ("too_deep", a limit that keeps the recursion bounded). Callers need the difference: a truncated
// call is a parse_error, a malformed one is just prose.
//
// The scanner compares character codes (`charCodeAt`), never one-character strings. Why values
// and codes rather than a result object per read: docs/benchmarks.md, "Why the references are
// written this way".
import type { Value } from "./types.ts";

/** Arrays and objects nested deeper than this are refused, so recursion stays shallow. */
export const MAX_DEPTH = 64;

export type FailureKind = "truncated" | "malformed" | "too_deep";

// The characters the grammar names, as UTF-16 codes (what `charCodeAt` returns).
export const TAB = 0x09, LF = 0x0a, CR = 0x0d, SPACE = 0x20;
export const LEFT_QUOTE = 0x201c /* “ */, RIGHT_QUOTE = 0x201d /* ” */;
export const OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d, OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d;
export const COLON = 0x3a, WIDE_COLON = 0xff1a /* ： */, EQUALS = 0x3d, BACKSLASH = 0x5c;

// Character classes, written as the README lists them: CLASSES holds the flags of each UTF-16
// code, so that "may a key hold this character?" is one question asked of one table. Characters
// outside the Basic Multilingual Plane arrive as surrogates, which have no flag.
const WHITESPACE = 1, COMMA = 2, OPEN_PAREN = 4, CLOSE_PAREN = 8, QUOTE = 16, BARE_END = 32, BARE_FORBIDDEN = 64, KEY_END = 128;
const WORD = 256;
const CLASSES = new Uint16Array(0x10000);
function classify(chars: string, flag: number): void {
  for (let i = 0; i < chars.length; i++) CLASSES[chars.charCodeAt(i)] |= flag;
}
/** The only whitespace of the kata: NBSP, VT, FF, U+2028 and the like are ordinary characters. */
classify(" \t\n\r\u3000", WHITESPACE);
classify(",，", COMMA);
classify("(（", OPEN_PAREN);
classify(")）", CLOSE_PAREN);
/** Quotes that open a string (“ closes only at ”). */
classify("\"'“", QUOTE);
/** Characters that end a bare word (it may stop there; what follows is the caller's business). */
classify(",，)）]}\n\r", BARE_END);
/** Characters a bare word may not contain: they start or end something else. */
classify("(（[{\"'“”=", BARE_FORBIDDEN);
/** What a name (and the word TOOL_CALL) is made of: only ASCII counts. */
classify("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.", WORD);
/** Characters a bare object key (or keyword name) may not contain. */
classify(" \t\n\r\u3000" + ",，)）]}\n\r" + "(（[{\"'“”=" + ":：", KEY_END);

/**
 * The flags of a character code. Past the end of the text `charCodeAt` gives NaN: `& 0xffff`
 * makes it 0, a character with no class, so the table is never read out of its bounds.
 */
const classOf = (c: number): number => CLASSES[c & 0xffff];

export const isWhitespace = (c: number): boolean => (classOf(c) & WHITESPACE) !== 0;
export const isComma = (c: number): boolean => (classOf(c) & COMMA) !== 0;
export const isOpenParen = (c: number): boolean => (classOf(c) & OPEN_PAREN) !== 0;
export const isCloseParen = (c: number): boolean => (classOf(c) & CLOSE_PAREN) !== 0;
export const isWordChar = (c: number): boolean => (classOf(c) & WORD) !== 0;
const isQuote = (c: number): boolean => (classOf(c) & QUOTE) !== 0;
const isColon = (c: number): boolean => c === COLON || c === WIDE_COLON;
const endsBareWord = (c: number): boolean => (classOf(c) & BARE_END) !== 0;
const forbiddenInBareWord = (c: number): boolean => (classOf(c) & BARE_FORBIDDEN) !== 0;
const endsKey = (c: number): boolean => (classOf(c) & KEY_END) !== 0;

const SIMPLE_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0" };
// Anchored and without nested quantifiers: it runs over one short word, never over the input.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^[0-9a-fA-F]+$/;
// Messages are fixed strings: they name no piece of the text, which may hold a secret.
const TOO_DEEP = `nested deeper than ${MAX_DEPTH} levels`;

/** Adds a key the way JSON.parse does: always an own property, even `__proto__` or `toString`. */
export function setOwn(target: Record<string, Value>, key: string, value: Value): void {
  // Plain assignment would call an inherited setter (`__proto__`): a name that Object.prototype
  // has is defined instead. Any other name cannot meet a setter and is assigned.
  if (key in Object.prototype) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export class Scanner {
  readonly text: string;
  /** Where the next read starts. */
  pos = 0;
  /** Why the last read failed, and where (for "truncated": the end of the text). */
  failKind: FailureKind = "malformed";
  failAt = 0;
  failMessage = "";

  constructor(text: string) {
    this.text = text;
  }

  /** Records a failure; returns undefined so that a reader can `return this.fail(...)`. */
  fail(kind: FailureKind, at: number, message: string): undefined {
    this.failKind = kind;
    this.failAt = at;
    this.failMessage = message;
    return undefined;
  }

  /** The same, for a reader that answers true or false. */
  failed(kind: FailureKind, at: number, message: string): false {
    this.fail(kind, at, message);
    return false;
  }

  truncated(message: string): undefined {
    return this.fail("truncated", this.text.length, message);
  }

  /** The code of the character at `pos` (NaN at the end of the text, which matches nothing). */
  peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  skipWhitespace(): void {
    const text = this.text;
    let i = this.pos;
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
    this.pos = i;
  }

  /** One literal (leading whitespace allowed). */
  readValue(depth: number): Value | undefined {
    this.skipWhitespace();
    if (this.atEnd()) return this.truncated("expected a value, the text ended");
    const c = this.peek();
    if (isQuote(c)) return this.readString();
    if (c === OPEN_BRACKET) return this.readArray(depth + 1);
    if (c === OPEN_BRACE) return this.readObject(depth + 1);
    return this.readBare();
  }

  /** A quoted string: "...", '...' or “...”, with backslash escapes; raw newlines are allowed. */
  readString(): string | undefined {
    const text = this.text;
    const open = text.charCodeAt(this.pos);
    const close = open === LEFT_QUOTE ? RIGHT_QUOTE : open;
    let value = "";
    let i = this.pos + 1;
    let chunkStart = i;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === close) {
        this.pos = i + 1;
        return value + text.slice(chunkStart, i);
      }
      if (c !== BACKSLASH) {
        i++;
        continue;
      }
      value += text.slice(chunkStart, i);
      this.pos = i;
      const escaped = this.readEscape();
      if (escaped === undefined) return undefined;
      value += escaped;
      i = chunkStart = this.pos;
    }
    return this.truncated("unterminated string");
  }

  /** `\n \r \t \b \f \v \0 \xHH \uHHHH \u{H...}`; a backslash before anything else keeps that character. */
  private readEscape(): string | undefined {
    const text = this.text;
    const backslash = this.pos;
    const c = text[backslash + 1];
    if (c === undefined) return this.truncated("the text ended inside an escape");
    this.pos = backslash + 2;
    if (Object.hasOwn(SIMPLE_ESCAPES, c)) return SIMPLE_ESCAPES[c];
    if (c === "x") return this.readHex(2, backslash);
    if (c === "u") {
      if (text[backslash + 2] !== "{") return this.readHex(4, backslash);
      // \u{...} holds at most 6 hex digits: never look further than that for the brace.
      let close = backslash + 3;
      while (close < text.length && close < backslash + 9 && text[close] !== "}") close++;
      if (close >= text.length) return this.truncated("the text ended inside an escape");
      const hex = text.slice(backslash + 3, close);
      const code = text[close] === "}" && HEX.test(hex) ? parseInt(hex, 16) : NaN;
      if (!(code <= 0x10ffff)) return this.fail("malformed", backslash, "bad \\u{...} escape");
      this.pos = close + 1;
      return String.fromCodePoint(code);
    }
    return c;
  }

  /** `digits` hex digits at `pos` (after `\x` or `\u`). */
  private readHex(digits: number, backslash: number): string | undefined {
    const hex = this.text.slice(this.pos, this.pos + digits);
    const allHex = hex === "" || HEX.test(hex);
    if (hex.length === digits && allHex) {
      this.pos += digits;
      return String.fromCharCode(parseInt(hex, 16));
    }
    // Too few digits is the model being cut off only if the text ends right there.
    return hex.length < digits && allHex
      ? this.truncated("the text ended inside an escape")
      : this.fail("malformed", backslash, "bad hex escape");
  }

  /** `[v, v, ...]`, a trailing comma allowed. */
  private readArray(depth: number): Value[] | undefined {
    if (depth > MAX_DEPTH) return this.fail("too_deep", this.pos, TOO_DEEP);
    const items: Value[] = [];
    this.pos++;
    this.skipWhitespace();
    while (true) {
      if (this.peek() === CLOSE_BRACKET) {
        this.pos++;
        return items;
      }
      const item = this.readValue(depth); // the text ending here is readValue's truncation
      if (item === undefined) return undefined;
      items.push(item);
      if (!this.readSeparator(CLOSE_BRACKET)) return undefined;
    }
  }

  /** `{key: v, ...}` with quoted or bare keys, `:` or `：`, a trailing comma allowed. */
  private readObject(depth: number): Record<string, Value> | undefined {
    if (depth > MAX_DEPTH) return this.fail("too_deep", this.pos, TOO_DEEP);
    const object: Record<string, Value> = {};
    this.pos++;
    this.skipWhitespace();
    while (true) {
      if (this.atEnd()) return this.truncated("unterminated object");
      if (this.peek() === CLOSE_BRACE) {
        this.pos++;
        return object;
      }
      const key = isQuote(this.peek()) ? this.readString() : this.readKey();
      if (key === undefined) return undefined;
      this.skipWhitespace();
      if (this.atEnd()) return this.truncated("the text ended after an object key");
      if (!isColon(this.peek())) return this.fail("malformed", this.pos, "expected ':' after an object key");
      this.pos++;
      const value = this.readValue(depth);
      if (value === undefined) return undefined;
      setOwn(object, key, value); // a repeated key keeps its last value, as in JSON.parse
      if (!this.readSeparator(CLOSE_BRACE)) return undefined;
    }
  }

  /** After an item: a comma (then maybe the closer), or the closer itself, left at `pos`. */
  private readSeparator(closer: number): boolean {
    this.skipWhitespace();
    if (this.atEnd()) return this.failed("truncated", this.text.length, "the text ended inside brackets");
    const c = this.peek();
    if (c === closer) return true;
    if (isComma(c)) {
      this.pos++;
      this.skipWhitespace();
      return true;
    }
    return this.failed("malformed", this.pos, closer === CLOSE_BRACKET ? "expected ',' or ']'" : "expected ',' or '}'");
  }

  /** Where a bare key or keyword name starting at `pos` ends: `pos` itself when there is none. */
  keyEnd(): number {
    const text = this.text;
    let i = this.pos;
    while (i < text.length && !endsKey(text.charCodeAt(i))) i++;
    return i;
  }

  /**
   * A bare key: one or more characters, no whitespace, no delimiter. Callers only call it before
   * the end of the text (they check for that first), so an empty key is malformed.
   */
  readKey(): string | undefined {
    const start = this.pos;
    const end = this.keyEnd();
    if (end === start) return this.fail("malformed", start, "expected a key");
    this.pos = end;
    return this.text.slice(start, end);
  }

  /**
   * A bare word: everything up to `, ， ) ） ] }` or a line break, trimmed. It becomes a number
   * when it looks like one, true/false/null (or True/False/None), else the string itself.
   * On failure `failAt` is the word's start: a caller that gives up on this text resumes there.
   */
  private readBare(): Value | undefined {
    const text = this.text;
    const start = this.pos;
    let i = start;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (endsBareWord(c)) break;
      if (forbiddenInBareWord(c)) return this.fail("malformed", start, "a bare word may not contain a bracket, a quote or '='");
      i++;
    }
    if (i >= text.length) return this.truncated("the text ended inside a bare word");
    let end = i;
    while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
    if (end === start) return this.fail("malformed", start, "expected a value");
    this.pos = end;
    return bareValue(text.slice(start, end));
  }
}

function bareValue(word: string): Value {
  switch (word) {
    case "true": case "True": return true;
    case "false": case "False": return false;
    case "null": case "None": return null;
  }
  if (mayStartNumber(word.charCodeAt(0)) && NUMBER.test(word)) {
    const n = Number(word);
    if (Number.isFinite(n)) return n;
  }
  return word;
}

/** A digit, a sign or a dot: a word that starts otherwise (most words) never needs the NUMBER test. */
function mayStartNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

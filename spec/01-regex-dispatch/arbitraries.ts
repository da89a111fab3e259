// Generators for kata 1: tool calls, the ways a model writes them, and prose that holds none.
// They aim at what breaks hand-written parsers on purpose: quotes, brackets and commas inside
// strings, escapes, full-width punctuation, CJK, emoji and astral characters, lone surrogates.
import fc from "fast-check";
import type { Value } from "@impl/01-regex-dispatch";

// ---------------------------------------------------------------------------------------------
// Strings and values

/** Single characters (or short runs) that a parser of quoted strings must get right. */
export const nastyPiece: fc.Arbitrary<string> = fc.constantFrom(
  "(", ")", "[", "]", "{", "}", ",", "\"", "'", "\\", "=", ":", "“", "”", "（", "）", "，", "：",
  "\n", "\r\n", "\t", " ", "\u3000", "北京", "今天", "注意", "😀", "𝄞", "👩‍💻", "e\u0301",
  "\u0000", "\ud800", "\udfff", "\\n", "\\\"", "\\u00e9", "f(x)", "TOOL_CALL:", "```", "True", "None",
);

/** Any string, weighted towards the nasty pieces above. */
export const nastyString: fc.Arbitrary<string> = fc
  .array(fc.oneof(
    { weight: 3, arbitrary: nastyPiece },
    { weight: 2, arbitrary: fc.string({ maxLength: 4 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
  ), { maxLength: 8 })
  .map((pieces) => pieces.join(""));

/** Finite numbers, never -0 (a rendered -0 reads back as 0 in JSON too). */
export const finiteNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
).filter((n) => !Object.is(n, -0));

/** Keys of objects and keyword arguments: identifiers, CJK, and prototype-ish names. */
export const keyName: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/),
  fc.constantFrom("城市", "日期", "__proto__", "constructor", "toString", "x", "ärger"),
);

/** An object with own keys, like JSON.parse builds (so `__proto__` is a real key). */
export function objectOf(entries: Iterable<readonly [string, Value]>): Record<string, Value> {
  const object: Record<string, Value> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** Any literal value: strings, numbers, booleans, null, nested arrays and objects. */
export const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 4, arbitrary: nastyString },
    { weight: 2, arbitrary: finiteNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.uniqueArray(fc.tuple(fc.oneof(keyName, nastyString), tie("value")), {
        maxLength: 3,
        selector: ([key]) => key,
      }).map(objectOf),
    },
  ),
})).value;

// ---------------------------------------------------------------------------------------------
// Calls

/** Tool names: identifiers, sometimes dotted (`math.factorial`). */
export const identifier: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,9}$/);
export const toolName: fc.Arbitrary<string> = fc
  .array(identifier, { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join("."));

export interface CallSpec {
  name: string;
  args: Value[];
  kwargs: Record<string, Value>;
}

/** A call: a name, 0-3 positional arguments, 0-3 keyword arguments with distinct names. */
export const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  name: toolName,
  args: fc.array(value, { maxLength: 3 }),
  kwargs: fc.uniqueArray(fc.tuple(keyName, value), { maxLength: 3, selector: ([key]) => key }).map(objectOf),
});

/** A call with keyword arguments only (what a TOOL_CALL marker can carry). */
export const keywordCallSpec: fc.Arbitrary<CallSpec> = callSpec.map((spec) => ({ ...spec, args: [] }));

/** How a model happened to write a call: which delimiters, quotes, spacing and literals. */
export interface Style {
  open: "(" | "（";
  close: ")" | "）";
  comma: "," | "，";
  colon: ":" | "：";
  quote: "\"" | "'" | "“";
  /** Python literals True/False/None instead of true/false/null. */
  python: boolean;
  /** Write every non-ASCII or control character of a string as an escape. */
  escapeAll: boolean;
  /** Whitespace after each comma and around `=`. */
  space: string;
}

export const asciiStyle: Style = {
  open: "(", close: ")", comma: ",", colon: ":", quote: "\"", python: false, escapeAll: false, space: " ",
};

export const style: fc.Arbitrary<Style> = fc.record({
  open: fc.constantFrom("(", "（"),
  close: fc.constantFrom(")", "）"),
  comma: fc.constantFrom(",", "，"),
  colon: fc.constantFrom(":", "："),
  quote: fc.constantFrom("\"", "'", "“"),
  python: fc.boolean(),
  escapeAll: fc.boolean(),
  space: fc.constantFrom("", " ", "  ", "\n", "\t", "\u3000"),
});

/** The same style, but with full-width delimiters where the ASCII one was (or a random mix). */
export const fullWidthOf = (base: Style, mix: { open: boolean; close: boolean; comma: boolean; colon: boolean; quote: boolean }): Style => ({
  ...base,
  open: mix.open ? "（" : base.open,
  close: mix.close ? "）" : base.close,
  comma: mix.comma ? "，" : base.comma,
  colon: mix.colon ? "：" : base.colon,
  quote: mix.quote ? "“" : base.quote,
});

export const fullWidthMix = fc.record({
  open: fc.boolean(), close: fc.boolean(), comma: fc.boolean(), colon: fc.boolean(), quote: fc.boolean(),
});

const closingQuote = (quote: Style["quote"]): string => (quote === "“" ? "”" : quote);

const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\v": "\\v" };

/** A string literal in the style's quotes; the backslash and the closing quote are escaped. */
export function renderString(s: string, st: Style): string {
  const close = closingQuote(st.quote);
  let out = st.quote;
  for (const unit of s) {
    if (unit === "\\" || unit === close) out += "\\" + unit;
    else if (st.escapeAll && unit in SHORT_ESCAPES) out += SHORT_ESCAPES[unit];
    else if (st.escapeAll && (unit < " " || unit > "~")) {
      const code = unit.codePointAt(0)!;
      // Astral characters alternate between \u{...} and a surrogate pair of \uXXXX.
      out += code > 0xffff && code % 2 === 0
        ? `\\u{${code.toString(16)}}`
        : [...unit].length === 1 && unit.length === 2
          ? `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}\\u${unit.charCodeAt(1).toString(16).padStart(4, "0")}`
          : `\\u${code.toString(16).padStart(4, "0")}`;
    } else out += unit;
  }
  return out + close;
}

export function renderValue(v: Value, st: Style): string {
  if (typeof v === "string") return renderString(v, st);
  if (typeof v === "number") return JSON.stringify(v);
  if (v === true) return st.python ? "True" : "true";
  if (v === false) return st.python ? "False" : "false";
  if (v === null) return st.python ? "None" : "null";
  if (Array.isArray(v)) return "[" + v.map((item) => renderValue(item, st)).join(st.comma + st.space) + "]";
  return "{" + Object.keys(v).map((key) => renderString(key, st) + st.colon + st.space + renderValue(v[key], st)).join(st.comma + st.space) + "}";
}

/** `name(a, b, key=value)` in the given style. */
export function renderCall(call: CallSpec, st: Style = asciiStyle): string {
  const parts = [
    ...call.args.map((arg) => renderValue(arg, st)),
    ...Object.keys(call.kwargs).map((key) => `${key}${st.space}=${st.space}${renderValue(call.kwargs[key], st)}`),
  ];
  return call.name + st.open + parts.join(st.comma + st.space) + st.close;
}

/** `[a(x=1), b(y="s")]`. */
export function renderList(calls: CallSpec[], st: Style = asciiStyle): string {
  return "[" + calls.map((call) => renderCall(call, st)).join(st.comma + st.space) + "]";
}

/** `TOOL_CALL: {"name": ..., "arguments": {...}}` for a call with keyword arguments only. */
export function renderMarker(call: CallSpec, st: Style = asciiStyle): string {
  return `TOOL_CALL${st.colon} ` + renderValue(objectOf([["name", call.name], ["arguments", call.kwargs]]), st);
}

// ---------------------------------------------------------------------------------------------
// Prose that holds no call

/** Prose fragments with parentheses and look-alikes that are *not* calls by the README's rule. */
export const proseLookalike: fc.Arbitrary<string> = fc.constantFrom(
  "the result (approx.) is 3", "注意（括号）", "f (x)", "(see above)", "e.g. (this one)", "a) b",
  "[1, 2]", "[note]", "x = (1 + 2)", "it's", "\"quoted, (really)\"", "3.14", "😀", "北京（今天）",
  "TOOL_CALL", "TOOL_CALL: none", "note: (a, b)", "（全角，标点）", "“引号”", "e.g.", "1)", "e.g.(x)",
);

const proseChar: fc.Arbitrary<string> = fc.constantFrom(
  ..."abcxyz XYZ 019 .,;!?-'\"\n\t:)）]}".split(""), "北", "京", "，", "。", "😀", "𝄞", "\u3000",
);

/** Call-free prose: look-alikes and harmless characters, never `name(`, `[name(` or a marker. */
export const callFreeProse: fc.Arbitrary<string> = fc
  .array(fc.oneof(proseLookalike, fc.array(proseChar, { maxLength: 12 }).map((cs) => cs.join(""))), { maxLength: 5 })
  .map((pieces) => pieces.join(" "));

// ---------------------------------------------------------------------------------------------
// Registries of spies

/** Turns `name` into a random upper/lower-case mix, driven by a boolean per character. */
export const recase = (name: string, flips: boolean[]): string =>
  [...name].map((c, i) => (flips[i % Math.max(flips.length, 1)] ? c.toUpperCase() : c.toLowerCase())).join("");

/** Names that must never find anything in a registry that does not hold them. */
export const prototypeName: fc.Arbitrary<string> = fc.constantFrom(
  "__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf",
  "__defineGetter__", "__lookupSetter__", "propertyIsEnumerable", "toLocaleString",
);

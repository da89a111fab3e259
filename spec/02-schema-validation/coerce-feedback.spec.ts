// Tasks 5 and 6: narrow, opt-in coercion, and feedback a model can act on.
import { describe, expect } from "vitest";
import { formatFeedback, MAX_FEEDBACK_ERRORS, validate, type Schema, type ValidationError } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../support/graded.ts";
import { arraysAround, refChain } from "./helpers.ts";

const numbers: Schema = {
  type: "object",
  properties: { n: { type: "number" }, i: { type: "integer" }, s: { type: "string" }, b: { type: "boolean" }, e: { enum: [1, 2] } },
};

describe("5. Coerce, narrowly and only when asked", () => {
  l1("off by default: a numeric string where a number is wanted is a type error", () => {
    const r = validate(numbers, { n: "42" });
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => [e.path, e.keyword])).toEqual([["/n", "type"]]);
    expect(r.coercions).toEqual([]);
  });

  l1("with coerce: numeric strings become numbers, each coercion reported, in a copy", () => {
    const data = { n: "-1.5", i: "42", s: "7" };
    const r = validate(numbers, data, { coerce: true });
    expect(r.valid).toBe(true);
    expect(r.value).toEqual({ n: -1.5, i: 42, s: "7" });
    expect(r.coercions).toEqual([
      { path: "/n", from: "-1.5", to: -1.5 },
      { path: "/i", from: "42", to: 42 },
    ]);
    expect(data).toEqual({ n: "-1.5", i: "42", s: "7" });
  });

  l2("only strings that round-trip: String(Number(s)) === s", () => {
    for (const s of ["042", " 42", "42 ", "1.0", "+1", "0x10", "", "1e3", "Infinity", "NaN", "1_000", "4 2"]) {
      const r = validate({ type: "number" }, s, { coerce: true });
      expect(r.valid, JSON.stringify(s)).toBe(false);
      expect(r.coercions).toEqual([]);
    }
    expect(validate({ type: "number" }, "1e+21", { coerce: true }).value).toBe(1e21);
    expect(validate({ type: "number" }, "0.5", { coerce: true }).value).toBe(0.5);
  });

  l2("integer only from a whole number; the coerced value meets the schema's other keywords", () => {
    const r = validate({ type: "integer" }, "1.5", { coerce: true });
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => e.keyword)).toEqual(["type"]);
    const m = validate({ type: "integer", minimum: 10 }, "5", { coerce: true });
    expect(m.errors.map((e) => e.keyword)).toEqual(["minimum"]);
    expect(m.coercions).toEqual([{ path: "", from: "5", to: 5 }]);
  });

  l2('booleans are never coerced from strings ("true" stays a type error)', () => {
    const r = validate(numbers, { b: "true" }, { coerce: true });
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => [e.path, e.keyword])).toEqual([["/b", "type"]]);
    expect(r.coercions).toEqual([]);
    expect((r.value as Record<string, unknown>).b).toBe("true");
    expect(validate(numbers, { b: true }, { coerce: true }).valid).toBe(true);
  });

  l2("enums are exact, and strings stay strings where a string is allowed", () => {
    expect(validate(numbers, { e: "1" }, { coerce: true }).valid).toBe(false);
    const r = validate({ type: ["string", "number"] }, "12", { coerce: true });
    expect(r.valid).toBe(true);
    expect(r.value).toBe("12");
    expect(r.coercions).toEqual([]);
  });

  l2("coercion reaches nested objects and array items, never inside anyOf/oneOf/not", () => {
    const schema: Schema = { type: "array", items: { type: "object", properties: { q: { type: "integer" } } } };
    const r = validate(schema, [{ q: "1" }, { q: "2" }], { coerce: true });
    expect(r.value).toEqual([{ q: 1 }, { q: 2 }]);
    expect(r.coercions.map((c) => c.path)).toEqual(["/0/q", "/1/q"]);
    const viaRef = validate({ $defs: { n: { type: "number" } }, allOf: [{ properties: { a: { $ref: "#/$defs/n" } } }] }, { a: "2.5" }, { coerce: true });
    expect(viaRef.value).toEqual({ a: 2.5 });
    expect(viaRef.coercions).toEqual([{ path: "/a", from: "2.5", to: 2.5 }]);
    const any = validate({ anyOf: [{ type: "integer" }, { type: "null" }] }, "3", { coerce: true });
    expect(any.valid).toBe(false);
    expect(any.coercions).toEqual([]);
  });

  l2("the coerced copy keeps __proto__ as plain data and pollutes nothing", () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes", "n": "1"}, "n": "2"}') as unknown;
    const schema: Schema = { properties: { n: { type: "number" }, ["__proto__"]: { properties: { n: { type: "number" } } } } };
    const r = validate(schema, data, { coerce: true });
    const value = r.value as Record<string, unknown>;
    expect(value.n).toBe(2);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: "yes", n: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  l2("the errors are those of the coerced value: an allOf sibling sees the number", () => {
    const r = validate({ allOf: [{ type: "integer" }, { maximum: 3 }] }, "5", { coerce: true });
    expect(r.coercions, "rule: the integer branch coerces").toEqual([{ path: "", from: "5", to: 5 }]);
    expect(r.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: the maximum branch sees 5").toEqual([["", "maximum", "/allOf/1/maximum"]]);
    const nested = validate({ properties: { n: { maximum: 9, allOf: [{ type: "number" }] } } }, { n: "12" }, { coerce: true });
    expect(nested.errors.map((e) => [e.path, e.keyword]), "rule: the holding schema's maximum sees the number too").toEqual([["/n", "maximum"]]);
    expect(nested.value).toEqual({ n: 12 });
  });

  l2("coercion applies at the root; a path coerced twice is reported once; value is a copy even with nothing coerced", () => {
    const root = validate({ type: "integer" }, "7", { coerce: true });
    expect([root.value, root.coercions], "rule: the root is coerced too").toEqual([7, [{ path: "", from: "7", to: 7 }]]);
    const twice = validate({ properties: { q: { type: "number", allOf: [{ type: "integer" }] } } }, { q: "3" }, { coerce: true });
    expect(twice.coercions, "rule: one coercion per path").toEqual([{ path: "/q", from: "3", to: 3 }]);
    const instance = { q: 3 };
    const none = validate({ properties: { q: { type: "number" } } }, instance, { coerce: true });
    expect(none.value, "rule: with coerce, value is a copy").not.toBe(instance);
    expect(none.value).toEqual(instance);
  });

  l3("a depth error has no coercions and hands back the instance itself, with or without coerce", () => {
    const deep = arraysAround("1", 101);
    const r = validate({ type: "number" }, deep, { coerce: true });
    expect(r.errors.map((e) => e.keyword), "rule: one depth error").toEqual(["depth"]);
    expect([r.value === deep, r.coercions], "rule: value is the instance, coercions []").toEqual([true, []]);
    const tooDeepToEvaluate = { $ref: "#/$defs/p0", $defs: refChain(600, { properties: { n: { type: "integer" } } }) };
    const args = { n: "5" };
    const e = validate(tooDeepToEvaluate, args, { coerce: true });
    expect(e.errors.map((x) => x.keyword), "rule: the evaluation depth error").toEqual(["depth"]);
    expect([e.value === args, e.coercions], "rule: value is the instance, coercions []").toEqual([true, []]);
  });

  l2("with coerce, anyOf, oneOf and not still answer whether the value matches", () => {
    const opts = { coerce: true };
    expect(validate({ oneOf: [{ type: "string" }, { type: "null" }] }, null, opts).valid).toBe(true);
    expect(validate({ anyOf: [{ minimum: 3 }] }, 4, opts).valid).toBe(true);
    expect(validate({ not: { type: "boolean" } }, false, opts).errors.map((e) => e.keyword)).toEqual(["not"]);
  });

  l2("the coerced copy's keys, nested ones included, are writable, enumerable and configurable", () => {
    const copy = validate({ properties: { outer: { properties: { n: { type: "integer" } } } } }, { outer: { n: "3", tag: "t" } }, { coerce: true }).value as { outer: object };
    for (const [holder, key] of [[copy, "outer"], [copy.outer, "n"], [copy.outer, "tag"]] as const) {
      expect(Object.getOwnPropertyDescriptor(holder, key), key).toEqual({ value: expect.anything(), writable: true, enumerable: true, configurable: true });
    }
  });
});

describe("6. Feedback for the model", () => {
  const errorsFor = (schema: Schema, data: unknown) => validate(schema, data).errors;
  /** `n` type errors, at /a0, /a1, ... */
  const typeErrors = (n: number): ValidationError[] =>
    Array.from({ length: n }, (_, i) => ({ path: `/a${i}`, keyword: "type", message: `expected string, got ${i}`, schemaPath: `/properties/a${i}/type` }));

  l1("one line per error: the argument, what was expected, what was got", () => {
    const errors = errorsFor({ properties: { date: { type: "string", format: "date" } } }, { date: 42 });
    const text = formatFeedback(errors, "get_weather");
    expect(text).toContain("get_weather");
    expect(text).toContain("`date`");
    expect(text).toContain("string");
    expect(text).toContain("42");
  }, { core: true });

  l2("format errors name the format; missing arguments are named", () => {
    const errors = errorsFor(
      { type: "object", properties: { date: { type: "string", format: "date" } }, required: ["city", "date"] },
      { date: "next friday" },
    );
    const text = formatFeedback(errors);
    const lines = text.split("\n");
    const city = lines.find((l) => l.includes("`city`"));
    const date = lines.find((l) => l.includes("`date`"));
    expect(city).toBeDefined();
    expect(date).toContain("date");
    expect(date).toContain('"next friday"');
  });

  l2("nested arguments are named by their path, joined with dots", () => {
    const errors = errorsFor({ properties: { loc: { properties: { lat: { type: "number" } } } } }, { loc: { lat: "north" } });
    const text = formatFeedback(errors);
    expect(text).toContain("`loc.lat`");
    expect(text).toContain('"north"');
  });

  l2("enum and range errors carry the allowed values and the limit", () => {
    const text = formatFeedback(errorsFor({ properties: { unit: { enum: ["celsius", "fahrenheit"] }, days: { maximum: 14 } } }, { unit: "kelvin", days: 30 }));
    expect(text).toContain("`unit`");
    expect(text).toContain('"celsius"');
    expect(text).toContain('"kelvin"');
    expect(text).toContain("`days`");
    expect(text).toContain("14");
    expect(text).toContain("30");
  });

  l2(`at most ${MAX_FEEDBACK_ERRORS} error lines; the rest are counted`, () => {
    const text = formatFeedback(typeErrors(MAX_FEEDBACK_ERRORS + 5), "t");
    expect(text).toContain("`a0`");
    expect(text).toContain(`\`a${MAX_FEEDBACK_ERRORS - 1}\``);
    expect(text).not.toContain(`\`a${MAX_FEEDBACK_ERRORS}\``);
    expect(text).toContain("5 more");
  });

  l2("the whole arguments object is named `(all arguments)`; no errors gives one line", () => {
    const text = formatFeedback(errorsFor({ type: "object" }, [1]), "t");
    expect(text).toContain("`(all arguments)`");
    expect(text).toContain("[1]");
    const ok = formatFeedback([], "t");
    expect(ok.length).toBeGreaterThan(0);
    expect(ok).not.toContain("\n");
    expect(ok).not.toContain("argument `");
  });

  l2("long values are cut short, so the feedback stays short", () => {
    const text = formatFeedback(errorsFor({ type: "integer" }, "x".repeat(5000)));
    expect(text.length).toBeLessThan(400);
    expect(text).toContain("xxxx");
  });

  l2("an empty toolName is as if none was given", () => {
    const [first] = formatFeedback([{ path: "/a", keyword: "type", message: "expected string, got 1", schemaPath: "/properties/a/type" }], "").split("\n");
    expect(first, "rule: the first line says invalid").toMatch(/invalid/i);
    expect(first, "rule: no empty tool name in backticks").not.toContain("``");
  });

  l2("no errors: one line saying the arguments are valid", () => {
    for (const text of [formatFeedback([]), formatFeedback([], "get_weather")]) {
      expect(text).not.toContain("\n");
      expect(text).toMatch(/valid/i);
      expect(text).not.toMatch(/invalid/i);
    }
  });

  l2("the first line says the arguments are invalid, with or without a tool name; one line per error", () => {
    const text = formatFeedback(typeErrors(2));
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/invalid/i);
    expect(lines.slice(1)).toEqual(["- argument `a0`: expected string, got 0", "- argument `a1`: expected string, got 1"]);
  });

  l2("exactly MAX_FEEDBACK_ERRORS errors: no extra line; two more: '- ... and 2 more errors'", () => {
    expect(formatFeedback(typeErrors(10), "f").split("\n")).toHaveLength(11);
    const lines = formatFeedback(typeErrors(12), "f").split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[11]).toBe("- ... and 2 more errors");
  });

  l2("one error more than MAX_FEEDBACK_ERRORS: '- ... and 1 more error', in the singular", () => {
    const lines = formatFeedback(typeErrors(11), "f").split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[11], "rule: '- ... and 1 more error' when it is one").toBe("- ... and 1 more error");
    expect(formatFeedback(typeErrors(11)).split("\n")[11]).toBe("- ... and 1 more error");
  });
});

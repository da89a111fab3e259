// Held-out bank, kata 2, tasks 5 and 6: coercion and feedback, with schemas, values and tool names
// the visible specs do not use. The candidate pack leaves this folder out.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { formatFeedback, MAX_DEPTH, MAX_FEEDBACK_ERRORS, validate, type Schema, type ValidationError } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../../support/graded.ts";
import { ajvValid } from "../ajv-oracle.ts";
import { PROPERTY_NAMES, toolName } from "../arbitraries.ts";
import { escape } from "./helpers.ts";

/** README, task 6: `const lines = (text) => text.trim().split("\n")`. */
const lines = (text: string) => text.trim().split("\n");

describe("5. Coerce, narrowly and only when asked", () => {
  const order: Schema = { type: "object", properties: { qty: { type: "integer" }, price: { type: "number" } }, required: ["qty"] };

  // README, task 5: "Off by default"; "Without coerce, value is the instance itself and coercions is []".
  l1("off by default, and with coerce: false: numeric strings stay type errors, value is the very instance", () => {
    for (const options of [undefined, {}, { coerce: false }]) {
      const args = { qty: "12", price: "0.5" };
      const r = validate(order, args, options);
      expect(r.errors.map((e) => [e.path, e.keyword]), JSON.stringify(options)).toEqual([["/qty", "type"], ["/price", "type"]]);
      expect(r.coercions).toEqual([]);
      expect(r.value, "rule: value is the instance itself").toBe(args);
    }
  });

  // README, task 5: coerced "at a schema ... whose type does not allow "string" but allows "number", or allows "integer" and the number is whole".
  l1("type number takes a decimal, a negative and an exponent string; a type list with number too", () => {
    expect(validate({ type: "number" }, "2.5", { coerce: true })).toEqual({ valid: true, errors: [], value: 2.5, coercions: [{ path: "", from: "2.5", to: 2.5 }] });
    expect(validate({ type: ["null", "number"] }, "-3", { coerce: true }).value).toBe(-3);
    expect(validate(order, { qty: "4", price: "1e-7" }, { coerce: true })).toEqual({
      valid: true,
      errors: [],
      value: { qty: 4, price: 1e-7 },
      coercions: [
        { path: "/qty", from: "4", to: 4 },
        { path: "/price", from: "1e-7", to: 1e-7 },
      ],
    });
  });

  // README, task 5: only "at a schema ... whose type does not allow "string"".
  l2("a type list that allows string never coerces, wherever string stands in it", () => {
    for (const type of [["number", "string"], ["integer", "string"], ["null", "integer", "string", "number"]]) {
      const r = validate({ properties: { zip: { type } } }, { zip: "75001" }, { coerce: true });
      expect([r.valid, r.value, r.coercions], JSON.stringify(type)).toEqual([true, { zip: "75001" }, []]);
    }
  });

  // README, task 5: "The errors are those of value, the copy with the coercions written in: every keyword sees the
  // coerced number, wherever the coercion was decided".
  l2("the errors are those of the coerced value: a keyword next to a $ref, and an allOf branch before the coercing one", () => {
    const viaRef = validate({ $defs: { n: { type: "number" } }, $ref: "#/$defs/n", exclusiveMaximum: 10 }, "12", { coerce: true });
    expect(viaRef.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: the exclusiveMaximum beside the $ref sees 12").toEqual([["", "exclusiveMaximum", "/exclusiveMaximum"]]);
    expect([viaRef.value, viaRef.coercions]).toEqual([12, [{ path: "", from: "12", to: 12 }]]);
    const before = validate({ properties: { qty: { allOf: [{ minimum: 1 }, { type: "integer" }] } } }, { qty: "0" }, { coerce: true });
    expect(before.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: the branch before the coercing one sees 0").toEqual([["/qty", "minimum", "/properties/qty/allOf/0/minimum"]]);
    expect(before.coercions).toEqual([{ path: "/qty", from: "0", to: 0 }]);
    const fine = validate({ properties: { qty: { allOf: [{ minimum: 1 }, { type: "integer" }] } } }, { qty: "3" }, { coerce: true });
    expect([fine.valid, fine.value]).toEqual([true, { qty: 3 }]);
  });

  // README, task 5: "value is then a deep copy of the instance with the coercions written in; the instance is never modified".
  l2("the coerced copy holds ordinary properties, like the instance's: writable, enumerable, configurable", () => {
    const args = { qty: "8", note: { text: "rush" } };
    const r = validate(order, args, { coerce: true });
    const value = r.value as Record<string, unknown>;
    expect(value).toEqual({ qty: 8, note: { text: "rush" } });
    expect(args, "rule: the instance is never modified").toEqual({ qty: "8", note: { text: "rush" } });
    expect(value.note, "rule: a deep copy").not.toBe(args.note);
    for (const [holder, key] of [[value, "qty"], [value, "note"], [value.note, "text"]] as Array<[Record<string, unknown>, string]>) {
      expect(Object.getOwnPropertyDescriptor(holder, key), key).toMatchObject({ writable: true, enumerable: true, configurable: true });
    }
  });

  // README, task 5: "With a depth error (task 7), coercions is [] and value is the instance itself, with or without coerce".
  l3("a too-deep instance with a numeric string at its top: one depth error, no coercions, the instance itself", () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < MAX_DEPTH; i++) deep = { next: deep };
    const args = { qty: "3", deep };
    for (const options of [{ coerce: true }, undefined]) {
      const r = validate(order, args, options);
      expect(r.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: one depth error").toEqual([["", "depth", ""]]);
      expect([r.valid, r.value === args, r.coercions], "rule: invalid, the instance itself, coercions []").toEqual([false, true, []]);
    }
  });

  l2("-0 does not round-trip; a type list with null still coerces; other keywords see the number", () => {
    expect(validate({ type: "integer" }, "-0", { coerce: true })).toMatchObject({ valid: false, coercions: [] });
    expect(validate({ type: ["integer", "null"] }, "3", { coerce: true })).toMatchObject({ valid: true, value: 3, coercions: [{ path: "", from: "3", to: 3 }] });
    const r = validate({ type: "number", maximum: 5 }, "7", { coerce: true });
    expect(r.errors.map((e) => e.keyword)).toEqual(["maximum"]);
    expect(r.coercions).toEqual([{ path: "", from: "7", to: 7 }]);
  });

  l2('"false", "true", "null" and "[]" stay strings: only numbers are ever coerced', () => {
    const schema: Schema = { type: "object", properties: { b: { type: "boolean" }, bi: { type: ["boolean", "integer"] }, n: { type: "null" }, a: { type: "array" } } };
    const r = validate(schema, { b: "false", bi: "true", n: "null", a: "[]" }, { coerce: true });
    expect(r.errors.map((e) => [e.path, e.keyword])).toEqual([["/b", "type"], ["/bi", "type"], ["/n", "type"], ["/a", "type"]]);
    expect(r.coercions).toEqual([]);
    expect(r.value).toEqual({ b: "false", bi: "true", n: "null", a: "[]" });
    expect(validate(schema, { bi: "12" }, { coerce: true }).value).toEqual({ bi: 12 });
  });

  l2.property("integer strings in an array are all coerced, reported in index order, the input untouched", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer().map(String), fc.constantFrom("x", "1.5", "01", "true")), { maxLength: 8 }), (items) => {
        const copy = [...items];
        const r = validate({ type: "array", items: { type: "integer" } }, items, { coerce: true });
        const good = (s: string) => String(Number(s)) === s && Number.isInteger(Number(s));
        expect(r.coercions).toEqual(items.flatMap((s, i) => (good(s) ? [{ path: `/${i}`, from: s, to: Number(s) }] : [])));
        expect(r.value).toEqual(items.map((s) => (good(s) ? Number(s) : s)));
        expect(r.valid).toBe(items.every(good));
        expect(items).toEqual(copy);
      }),
    );
  });

  l2("no coercion inside oneOf or not, nor through $ref, items or allOf inside a branch; next to them coercion still applies", () => {
    const one = validate({ oneOf: [{ type: "integer" }, { type: "string" }] }, "7", { coerce: true });
    expect([one.valid, one.value, one.coercions], "rule: a oneOf branch does not coerce: the string branch alone matches").toEqual([true, "7", []]);
    const not = validate({ not: { type: "integer" } }, "12", { coerce: true });
    expect([not.valid, not.value, not.coercions], "rule: a not branch does not coerce: the string is not an integer").toEqual([true, "12", []]);
    const viaRef = validate({ type: "object", properties: { qty: { anyOf: [{ $ref: "#/$defs/count" }, { type: "boolean" }] } }, $defs: { count: { type: "integer", minimum: 1 } } }, { qty: "3" }, { coerce: true });
    expect([viaRef.errors.map((e) => [e.path, e.keyword]), viaRef.coercions, viaRef.value], "rule: a $ref inside an anyOf branch is still inside it").toEqual([[["/qty", "anyOf"]], [], { qty: "3" }]);
    const viaItems = validate({ anyOf: [{ type: "array", items: { type: "number" } }, { type: "null" }] }, ["1.5", "2"], { coerce: true });
    expect([viaItems.errors.map((e) => [e.path, e.keyword]), viaItems.coercions], "rule: items inside an anyOf branch do not coerce").toEqual([[["", "anyOf"]], []]);
    const deep = validate({ items: { properties: { w: { oneOf: [{ allOf: [{ type: "number" }] }] } } } }, [{ w: "0.25" }], { coerce: true });
    expect([deep.errors.map((e) => [e.path, e.keyword]), deep.coercions, deep.value], "rule: allOf inside a oneOf branch does not coerce").toEqual([[["/0/w", "oneOf"]], [], [{ w: "0.25" }]]);
    const beside = validate({ type: "integer", not: { minimum: 100 } }, "250", { coerce: true });
    expect([beside.errors.map((e) => e.keyword), beside.coercions, beside.value], "rule: the type next to not coerces, and the branch sees the number").toEqual([["not"], [{ path: "", from: "250", to: 250 }], 250]);
    const nextTo = validate({ properties: { n: { type: "number", anyOf: [{ maximum: 0 }, { minimum: 10 }] } } }, { n: "5" }, { coerce: true });
    expect([nextTo.errors.map((e) => [e.path, e.keyword]), nextTo.coercions], "rule: the number next to anyOf is what its branches judge").toEqual([[["/n", "anyOf"]], [{ path: "/n", from: "5", to: 5 }]]);
    expect(validate({ properties: { n: { type: "number", anyOf: [{ maximum: 0 }, { minimum: 10 }] } } }, { n: "15" }, { coerce: true }).valid).toBe(true);
  });

  l2.property("numeric strings that only anyOf, oneOf or not branches ask for are never coerced: the result is the uncoerced one, and Ajv agrees", () => {
    const numeric = fc.oneof(fc.integer({ min: -100000, max: 100000 }).map(String), fc.constantFrom("0.5", "-2.25", "1e+21", "3", "0"));
    const numberType = fc.constantFrom<unknown>("integer", "number", ["integer", "null"], ["boolean", "number"]);
    // The branch that would coerce, reached in place or through $ref, allOf, properties or items.
    const branch = fc.tuple(numberType, fc.constantFrom("plain", "ref", "allOf", "bounded" as const)).map(([type, how]) =>
      how === "ref" ? { $ref: "#/$defs/num" } : how === "allOf" ? { allOf: [{ type }] } : how === "bounded" ? { type, minimum: -5, maximum: 50 } : { type },
    );
    const others = fc.array(fc.constantFrom<Schema>({ type: "boolean" }, { type: "string", minLength: 3 }, { const: "0" }, { type: "string", pattern: "^-" }, false), { maxLength: 2 });
    const combinator = fc.tuple(fc.constantFrom("anyOf", "oneOf", "not" as const), branch, others, fc.nat()).map(([kw, b, rest, at]) => {
      if (kw === "not") return { not: b };
      const list = [...rest];
      list.splice(at % (list.length + 1), 0, b);
      return { [kw]: list };
    });
    const placed = fc.tuple(combinator, fc.constantFrom("root", "property", "items", "additional", "allOf", "ref", "inside" as const), numeric, numberType).map(([c, where, s, defType]) => {
      const $defs = { num: { type: defType }, wrap: c };
      switch (where) {
        case "root": return { schema: { ...c, $defs }, data: s as unknown };
        case "property": return { schema: { type: "object", properties: { "unit price": c }, $defs }, data: { "unit price": s } };
        case "items": return { schema: { type: "array", items: c, $defs }, data: [s, "x", s] };
        case "additional": return { schema: { properties: { id: { type: "string" } }, additionalProperties: c, $defs }, data: { id: "7", qty: s } };
        case "allOf": return { schema: { allOf: [{ type: ["string", "number"] }, c], $defs }, data: s };
        case "ref": return { schema: { properties: { v: { $ref: "#/$defs/wrap" } }, $defs }, data: { v: s } };
        case "inside": return { schema: { anyOf: [{ type: "null" }, { properties: { deep: { items: c } } }], $defs }, data: { deep: [s] } };
      }
    });
    fc.assert(
      // Ajv compiles each new schema (2 ms idle, several under load): it judges one case in ten.
      fc.property(placed, fc.nat(9), ({ schema, data }, ajvTurn) => {
        const before = structuredClone(data);
        const r = validate(schema as Schema, data, { coerce: true });
        const plain = validate(schema as Schema, data);
        expect(r.coercions, "rule: nothing is coerced inside anyOf, oneOf or not").toEqual([]);
        expect(r.value).toEqual(before);
        expect(r.errors.map((e) => [e.path, e.keyword, e.schemaPath])).toEqual(plain.errors.map((e) => [e.path, e.keyword, e.schemaPath]));
        if (ajvTurn === 0) expect(r.valid, "Ajv's verdict, without coercion").toBe(ajvValid(schema, data));
      }),
    );
  });
});

describe("6. Feedback for the model", () => {
  // README, task 6: "With no errors it returns a one-line text saying the arguments are valid (wording free)".
  l2("no errors, with a tool name or without: one line that says valid, not invalid", () => {
    for (const text of [formatFeedback([], "book_flight"), formatFeedback([], ""), formatFeedback([])]) {
      expect(lines(text)).toHaveLength(1);
      expect(text).toMatch(/valid/i);
      expect(text).not.toMatch(/invalid/i);
      expect(text).not.toContain("- argument");
    }
  });

  // README, task 6: "a first line saying the arguments are invalid ...; then one line per error".
  l2("without a tool name the first line still says the arguments are invalid, before the error lines", () => {
    const errors = validate({ properties: { seats: { type: "integer" }, cabin: { enum: ["eco", "biz"] } } }, { seats: "two", cabin: "first" }).errors;
    for (const text of [formatFeedback(errors), formatFeedback(errors, "")]) {
      const all = lines(text);
      expect(all, "rule: a first line, then one line per error").toHaveLength(3);
      expect(all[0]).toMatch(/invalid/i);
      expect(all[0].startsWith("- "), "rule: the first line is not an error line").toBe(false);
      expect(all.slice(1).map((l) => l.slice(0, l.indexOf(": ")))).toEqual(["- argument `seats`", "- argument `cabin`"]);
    }
  });

  // README, task 6: "a last line - ... and N more errors (N the number left out; - ... and 1 more error when it is one)".
  l2("past the cap: '- ... and 1 more error' for one left out, '- ... and 4 more errors' for four", () => {
    const errorsOf = (n: number) => validate({ items: { type: "boolean" } }, Array.from({ length: n }, (_, i) => `v${i}`)).errors;
    const eleven = lines(formatFeedback(errorsOf(MAX_FEEDBACK_ERRORS + 1), "set_flags"));
    expect(eleven).toHaveLength(MAX_FEEDBACK_ERRORS + 2);
    expect(eleven.at(-1)).toBe("- ... and 1 more error");
    expect(eleven.at(-2)?.startsWith(`- argument \`${MAX_FEEDBACK_ERRORS - 1}\`: `)).toBe(true);
    const fourteen = lines(formatFeedback(errorsOf(MAX_FEEDBACK_ERRORS + 4)));
    expect(fourteen).toHaveLength(MAX_FEEDBACK_ERRORS + 2);
    expect(fourteen.at(-1)).toBe("- ... and 4 more errors");
  });

  // README, task 3: "In messages such values are shown with String (NaN, undefined)"; task 6: each line is "- argument `<name>`: <message>".
  l2("values JSON cannot hold are shown with String in the feedback lines: NaN, -Infinity, Infinity, an undefined item", () => {
    const errors = validate({ properties: { rate: { type: "number" }, cap: { type: "integer" }, tags: { items: { type: "string" } }, big: { enum: [1] } } }, { rate: NaN, cap: -Infinity, tags: ["ok", undefined], big: Infinity }).errors;
    const body = lines(formatFeedback(errors, "tune")).slice(1);
    expect(body.map((l) => l.slice(0, l.indexOf(": ")))).toEqual(["- argument `rate`", "- argument `cap`", "- argument `tags.1`", "- argument `big`"]);
    expect(body[0]).toContain("NaN");
    expect(body[1]).toContain("-Infinity");
    expect(body[2]).toContain("undefined");
    expect(body[3]).toContain("Infinity");
  });

  // README, task 4, Messages: "the value rendered with JSON.stringify, cut to 60 characters (57 then ...) when longer".
  l2("a value rendered in exactly 60 characters is shown whole; one of 61 is cut to 57 and ...", () => {
    const line = (code: string) => lines(formatFeedback(validate({ properties: { code: { type: "integer" } } }, { code }).errors))[1];
    const sixty = line("y".repeat(58));
    expect(sixty, "rule: 60 characters are not cut").toContain(`"${"y".repeat(58)}"`);
    expect(sixty).not.toContain("...");
    const sixtyOne = line("y".repeat(59));
    expect(sixtyOne, "rule: 61 characters are cut to 57, then ...").toContain(`"${"y".repeat(56)}...`);
    expect(sixtyOne).not.toContain("y".repeat(57));
  });

  const err = (path: string, message = "expected string, got 1"): ValidationError => ({ path, keyword: "type", message, schemaPath: "" });

  l2("paths become dotted names with ~0 and ~1 unescaped; the tool is named in backticks", () => {
    const text = formatFeedback([err("/stops/2/lat", "m1"), err("/a~1b/m~0n", "m2")], "route");
    const lines = text.split("\n");
    expect(lines[0]).toContain("`route`");
    expect(lines.slice(1)).toEqual(["- argument `stops.2.lat`: m1", "- argument `a/b.m~n`: m2"]);
  });

  l2.property(`any number of errors: at most ${MAX_FEEDBACK_ERRORS} lines, then "- ... and N more errors"`, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), (n) => {
        const lines = formatFeedback(Array.from({ length: n }, (_, i) => err(`/p${i}`, `m${i}`))).split("\n");
        const shown = Math.min(n, MAX_FEEDBACK_ERRORS);
        expect(lines.slice(1, 1 + shown)).toEqual(Array.from({ length: shown }, (_, i) => `- argument \`p${i}\`: m${i}`));
        // The README writes "N more errors"; the singular "1 more error" is fine too.
        if (n > MAX_FEEDBACK_ERRORS) {
          expect(lines.slice(1 + shown)).toHaveLength(1);
          expect(lines[1 + shown]).toMatch(new RegExp(`^- \\.\\.\\. and ${n - MAX_FEEDBACK_ERRORS} more error`));
        }
        else expect(lines).toHaveLength(1 + n);
      }),
    );
  });

  l2("an empty toolName gives the very text of no toolName, for one error and past the cap; a one-letter name is named", () => {
    const one = [err("", "expected object, got []")];
    const many = Array.from({ length: MAX_FEEDBACK_ERRORS + 3 }, (_, i) => err(`/rows/${i}/qty`, `m${i}`));
    for (const errors of [one, many]) {
      const empty = formatFeedback(errors, "");
      expect(empty, "rule: an empty toolName is as if not given").toBe(formatFeedback(errors));
      expect(empty.split("\n")[0], "rule: no empty name in backticks").not.toContain("``");
      const named = formatFeedback(errors, "q");
      expect(named.split("\n")[0], "rule: a given name is named, in backticks").toContain("`q`");
      expect(named.split("\n").slice(1), "rule: the error lines do not depend on the name").toEqual(empty.split("\n").slice(1));
    }
    expect(formatFeedback(one, "").split("\n").slice(1)).toEqual(["- argument `(all arguments)`: expected object, got []"]);
  });

  l2.property("any errors: the toolName \"\" and no toolName give the same text; a given name is in backticks on the first line, the error lines unchanged", () => {
    const segment = fc.oneof(fc.constantFrom(...PROPERTY_NAMES).map(escape), fc.nat(20).map(String));
    const error = fc.tuple(fc.array(segment, { maxLength: 3 }), fc.constantFrom("type", "required", "enum"), fc.stringMatching(/^[a-z ,]{1,20}$/)).map(
      ([segments, keyword, message]): ValidationError => ({ path: segments.map((x) => `/${x}`).join(""), keyword, message, schemaPath: "" }),
    );
    fc.assert(
      fc.property(fc.array(error, { minLength: 1, maxLength: MAX_FEEDBACK_ERRORS + 4 }), toolName, (errors, name) => {
        const empty = formatFeedback(errors, "");
        expect(empty).toBe(formatFeedback(errors));
        expect(empty.split("\n")[0]).not.toContain("``");
        const named = formatFeedback(errors, name).split("\n");
        expect(named[0]).toContain(`\`${name}\``);
        expect(named.slice(1)).toEqual(empty.split("\n").slice(1));
        expect(named).toHaveLength(1 + Math.min(errors.length, MAX_FEEDBACK_ERRORS) + (errors.length > MAX_FEEDBACK_ERRORS ? 1 : 0));
      }),
    );
  });
});

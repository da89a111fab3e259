// Held-out bank, kata 2, tasks 5 and 6: coercion and feedback, with schemas, values and tool names
// the visible specs do not use. The candidate pack leaves this folder out.
import { describe, expect } from "vitest";
import { formatFeedback, MAX_DEPTH, MAX_FEEDBACK_ERRORS, validate, type Schema } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../../support/graded.ts";

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
});

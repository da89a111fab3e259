// Task 7: the limits that keep a hostile model (or schema) from hurting the process.
import { describe, expect } from "vitest";
import { extractToolCalls, MAX_DEPTH, MAX_PATTERN_LENGTH, SchemaError, validate, type Schema } from "@impl/02-schema-validation";
import { l3 } from "../support/graded.ts";
import { callEach } from "../support/realm.ts";
import { cpuTimeMs } from "../support/time-limits.ts";
import { arraysAround, refChain, verdict } from "./helpers.ts";

function nestedArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

function nestedObject(depth: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

function schemaCode(schema: unknown): string {
  try {
    validate(schema as Schema, "aaaa");
    return "accepted";
  } catch (e) {
    return e instanceof SchemaError ? e.code : `threw ${(e as Error).name}: ${(e as Error).message}`;
  }
}

const patternVerdict = (pattern: string) => schemaCode({ type: "string", pattern });

describe("7. Safety limits", () => {
  l3("10,000-deep arrays and objects: one `depth` error, not a stack overflow", () => {
    for (const deep of [nestedArray(10_000), nestedObject(10_000)]) {
      for (const schema of [{}, { $defs: { t: { items: { $ref: "#/$defs/t" }, properties: { a: { $ref: "#/$defs/t" } } } }, $ref: "#/$defs/t" }]) {
        const r = validate(schema as Schema, deep);
        expect(r.valid).toBe(false);
        expect(r.errors).toHaveLength(1);
        expect(r.errors[0]).toMatchObject({ path: "", keyword: "depth" });
      }
    }
  });

  l3(`exactly MAX_DEPTH (${MAX_DEPTH}) levels are fine, one more is not`, () => {
    expect(validate({}, nestedArray(MAX_DEPTH)).valid).toBe(true);
    expect(validate({}, nestedObject(MAX_DEPTH)).valid).toBe(true);
    expect(validate({}, nestedArray(MAX_DEPTH + 1)).errors.map((e) => e.keyword)).toEqual(["depth"]);
    expect(validate({}, [1, "s", null, nestedObject(MAX_DEPTH - 1)]).valid).toBe(true);
  });

  l3("a 10,000-deep schema is a SchemaError `too_deep`, not a stack overflow", () => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < 10_000; i++) schema = { not: schema };
    expect(schemaCode(schema)).toBe("too_deep");
    let items: unknown = true;
    for (let i = 0; i < 10_000; i++) items = { items: items };
    expect(schemaCode(items)).toBe("too_deep");
    expect(schemaCode({ not: { not: { type: "string" } } })).toBe("accepted");
  });

  l3("a 10,000-deep message extracts without a stack overflow", () => {
    const deepArgs = "[".repeat(10_000) + "]".repeat(10_000);
    const text = `<tool_call>{"name": "f", "arguments": {"x": ${deepArgs}}}</tool_call> and ${"[".repeat(10_000)}`;
    const r = extractToolCalls(text);
    expect(r.calls.map((c) => c.name)).toEqual(["f"]);
    const nested = JSON.parse('{"tool_calls": '.repeat(2000) + "[]" + "}".repeat(2000)) as unknown;
    expect(extractToolCalls(nested).calls).toEqual([]);
  });

  l3("$refs that loop without moving into the instance: SchemaError `ref_cycle`", () => {
    expect(schemaCode({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" })).toBe("ref_cycle");
    expect(schemaCode({ anyOf: [{ type: "integer" }, { $ref: "#" }] })).toBe("ref_cycle");
    expect(schemaCode({ $defs: { t: { items: { $ref: "#/$defs/t" } } }, $ref: "#/$defs/t" })).toBe("accepted");
  });

  l3("catastrophic patterns are refused before they run: `unsafe_pattern`", () => {
    for (const pattern of ["(a+)+$", "(a*)*b", "^(a|aa)+$", "(\\d+,?)*x", "((ab)*c)+", "(x+x+)+y", "(?:a+){2,}", "(a)\\1"]) {
      expect(schemaCode({ pattern }), pattern).toBe("unsafe_pattern");
    }
    expect(schemaCode({ pattern: "a".repeat(MAX_PATTERN_LENGTH + 1) })).toBe("unsafe_pattern");
    for (const pattern of ["^[a-z]+$", "^(ab)+$", "^\\d{3}-\\d{4}$", "(a|b)?c", "^(?:[a-z0-9]+)$", "[(+*)]+", "\\(a+\\)+"]) {
      expect(schemaCode({ pattern }), pattern).toBe("accepted");
    }
  });

  l3("an accepted pattern on a long hostile string finishes fast", () => {
    // CPU time, which load does not stretch (spec/support/time-limits.ts): a few milliseconds here,
    // while a backtracking engine's catastrophic case takes far more than the bound.
    let r: ReturnType<typeof validate> | undefined;
    const cpuMs = cpuTimeMs(() => (r = validate({ pattern: "^[a-z][a-z0-9-]*(?:\\.[a-z0-9-]+)?$" }, "a-".repeat(50_000) + "!")));
    expect(r!.valid).toBe(false);
    expect(cpuMs, "CPU time of one validation of 100 KB against the pattern (ms)").toBeLessThan(2_000);
  });

  l3("__proto__, constructor and prototype as property names are ordinary names", () => {
    const schema: Schema = {
      type: "object",
      properties: { ["__proto__"]: { type: "string" }, constructor: { type: "string" }, toString: { type: "string" } },
      required: ["constructor"],
    };
    expect(validate(schema, {}).errors.map((e) => [e.path, e.keyword])).toEqual([["/constructor", "required"]]);
    const data = JSON.parse('{"__proto__": 1, "constructor": "c", "toString": 2}') as unknown;
    expect(validate(schema, data).errors.map((e) => [e.path, e.keyword])).toEqual([
      ["/__proto__", "type"],
      ["/toString", "type"],
    ]);
    expect(validate({ required: ["toString", "hasOwnProperty"] }, {}).errors).toHaveLength(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  l3("evaluation depth: a recursive $ref schema with 50 nested allOf on a 99-deep instance is one depth error, not a stack overflow", () => {
    let node: Schema = { items: { $ref: "#/$defs/node" } };
    for (let i = 0; i < 50; i++) node = { allOf: [node] };
    const schema: Schema = { $defs: { node }, $ref: "#/$defs/node" };
    const r = validate(schema, arraysAround(1, 99));
    expect(r.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: more than 500 levels of applied schemas is the depth error").toEqual([["", "depth", ""]]);
    expect(r.valid).toBe(false);
    expect(validate(schema, arraysAround(1, 5)).valid, "rule: the same schema on a shallow instance is fine").toBe(true);
  });

  l3("evaluation depth: level 500 is applied, level 501 is the depth error (root 1, each subschema and $ref target one more)", () => {
    // The root (1) and 300 chained $refs (2..301) reach the definition `last` at 302; on 99 nested
    // arrays around a number, `last` and its items subschema alternate up to level 302 + 2 * 99 = 500.
    const at = (chain: number): Schema => ({ $ref: "#/$defs/p0", $defs: refChain(chain, { type: ["array", "integer"], items: { $ref: "#/$defs/last" } }) });
    expect(validate(at(300), arraysAround(1, 99)).errors, "rule: an object schema applied at level 500 is fine").toEqual([]);
    expect(validate(at(301), arraysAround(1, 99)).errors.map((e) => e.keyword), "rule: an object schema at level 501 is the depth error").toEqual(["depth"]);
    const bottom = validate(at(300), arraysAround("x", 99)).errors.map((e) => [e.path, e.keyword]);
    expect(bottom, "rule: the schema at level 500 is applied: its type error, no depth error").toEqual([["/0".repeat(99), "type"]]);
  });

  l3("evaluation depth counts every anyOf and oneOf branch, even after one has matched", () => {
    const defs = refChain(520, { type: "number" });
    expect(validate({ anyOf: [{}, { $ref: "#/$defs/p0" }], $defs: defs }, 1).errors.map((e) => e.keyword), "rule: a later anyOf branch counts").toEqual(["depth"]);
    expect(validate({ oneOf: [{ type: "string" }, { $ref: "#/$defs/p0" }], $defs: defs }, "s").errors.map((e) => e.keyword), "rule: every oneOf branch counts").toEqual([
      "depth",
    ]);
    expect(validate({ anyOf: [{}, { $ref: "#/$defs/p0" }], $defs: refChain(400, { type: "number" }) }, 1).valid, "rule: below the limit, anyOf as usual").toBe(true);
  });

  l3("evaluation depth: a branch met a second time, deeper, counts from where it is met", () => {
    // `shared` is applied at level 3 through allOf, then again near level 453 through the chain:
    // the second time its branch goes about 100 levels deeper, past 500.
    const defs: Record<string, Schema> = { ...refChain(450, { $ref: "#/$defs/shared" }), shared: { anyOf: [{ $ref: "#/$defs/q0" }] } };
    for (let i = 0; i < 100; i++) defs[`q${i}`] = { $ref: i + 1 < 100 ? `#/$defs/q${i + 1}` : "#/$defs/leaf" };
    defs.leaf = { type: "number" };
    const schema: Schema = { allOf: [{ $ref: "#/$defs/shared" }], anyOf: [{ $ref: "#/$defs/p0" }], $defs: defs };
    expect(validate(schema, 1).errors.map((e) => e.keyword), "rule: the deeper occurrence goes past level 500").toEqual(["depth"]);
    expect(validate({ ...schema, anyOf: [{ $ref: "#/$defs/p300" }] }, 1).valid, "rule: the same schema entered less deep is fine").toBe(true);
  });

  l3("the instance depth counts arrays and objects only: 100 nested arrays around a number are fine", () => {
    let value: unknown = 1;
    for (let i = 0; i < 100; i++) value = [value];
    expect(validate({}, value).errors, "rule: 100 nested arrays are 100 levels (a top-level [] is 1), not too deep").toEqual([]);
    const deeper = validate({}, [value]).errors;
    expect(deeper.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: 101 levels (a top-level [] is 1) is one depth error").toEqual([["", "depth", ""]]);
    expect(typeof deeper[0]?.message, "rule: the depth error has a message").toBe("string");
  });

  l3("`null` is not a level either (though typeof null is \"object\"): 100 nested arrays or objects around null are fine", () => {
    const around = (wrap: (inner: unknown) => unknown, levels: number): unknown => {
      let value: unknown = null;
      for (let i = 0; i < levels; i++) value = wrap(value);
      return value;
    };
    for (const [name, wrap] of [["arrays", (v: unknown) => [v]], ["objects", (v: unknown) => ({ a: v })]] as const) {
      for (const schema of [{}, true, { type: name === "arrays" ? "array" : "object" }] as Schema[]) {
        expect(validate(schema, around(wrap, MAX_DEPTH)).errors, `rule: ${MAX_DEPTH} nested ${name} around null under ${JSON.stringify(schema)} are fine`).toEqual([]);
        expect(validate(schema, around(wrap, MAX_DEPTH + 1)).errors.map((e) => e.keyword), `rule: ${MAX_DEPTH + 1} nested ${name} around null are one depth error`).toEqual(["depth"]);
      }
    }
  });

  l3("patterns: a pattern of exactly MAX_PATTERN_LENGTH characters is accepted, one more is refused", () => {
    expect(patternVerdict("a".repeat(1000))).toBe("accepted");
    expect(patternVerdict("a".repeat(1001))).toBe("unsafe_pattern");
  });

  l3("patterns: back-references by name, and quantifiers inside groups repeated without bound, are refused", () => {
    const refused = [
      "(?<x>a)\\k<x>",
      "(a{2})+",
      "(a{10})*",
      "(a{2,3})+",
      "(a{2,})+",
      "(ab?)+",
      "(a|b)*",
      "(?<n>a+)+",
      "(?:a+){2,}",
      "(a+?)+",
      "[a](b+)+",
      "([ab])(c+)+",
      "(?<=a)(b+)+",
      "(?<!a)(b+)+",
      "(?<n>a)(b+)+",
      "x(?:y)(a*)*",
      "(?:(a+))+",
    ];
    expect(refused.map((p) => [p, patternVerdict(p)])).toEqual(refused.map((p) => [p, "unsafe_pattern"]));
  });

  l3("patterns: escapes, character classes, group prefixes and bounded repeats are not quantifiers", () => {
    const accepted = [
      "(\\+)+",
      "(\\*\\?)+",
      "([+*?])+",
      "([\\]+])+",
      "(?:ab)+",
      "(?=a)b+",
      "(?<n>ab)+",
      "(?<=a)(bc)+",
      "(?<!a)(bc)*",
      "((ab))+",
      "(a+){2,3}",
      "(a+){2}",
      "^\\d<",
      "\\w<x>",
    ];
    expect(accepted.map((p) => [p, patternVerdict(p)])).toEqual(accepted.map((p) => [p, "accepted"]));
  });

  // The same definition applied twice, the second time one level deeper: its deepest schema is
  // one level deeper too, however an implementation avoids evaluating it again.
  // `$defs`: `name` (the definition under test) and p0 -> p1 -> ... -> p<n-1> -> last ({}).
  const twice = (name: string, def: Schema, chain: number): Schema => {
    const $defs: Record<string, Schema> = { [name]: def, last: {} };
    for (let i = 0; i < chain; i++) $defs[`p${i}`] = { $ref: i + 1 < chain ? `#/$defs/p${i + 1}` : "#/$defs/last" };
    const ref = { $ref: `#/$defs/${name}` };
    return { allOf: [ref, { allOf: [ref] }], $defs };
  };
  const depthVerdict = (schema: Schema) => verdict(schema, { a: 1 });

  l3("evaluation depth: an anyOf branch applied again one level deeper reaches one level deeper (500 fine, 501 the depth error)", () => {
    // root 1, allOf/0 2, x 3, x's branch 4, p0 5, last 5 + n; through allOf/1/allOf/0 all one more: last at 6 + n.
    const x: Schema = { anyOf: [{ $ref: "#/$defs/p0" }] };
    expect(depthVerdict(twice("x", x, 494)), "rule: deepest object schema at level 500 is applied").toEqual([]);
    expect(depthVerdict(twice("x", x, 495)), "rule: an object schema at level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: an anyOf branch whose deepest schema comes from an inner branch applied twice, itself applied again deeper", () => {
    // y's branch at 4: x at 6 (last at 8 + n) and x at 7 (last at 9 + n); y again one deeper: last at 10 + n.
    const $defsX: Schema = { anyOf: [{ $ref: "#/$defs/p0" }] };
    const y: Schema = { anyOf: [{ allOf: [{ $ref: "#/$defs/x" }, { allOf: [{ $ref: "#/$defs/x" }] }] }] };
    const at = (n: number): Schema => {
      const schema = twice("y", y, n) as { $defs: Record<string, Schema> };
      schema.$defs.x = $defsX;
      return schema as Schema;
    };
    expect(depthVerdict(at(490)), "rule: deepest object schema at level 500 is applied").toEqual([]);
    expect(depthVerdict(at(491)), "rule: an object schema at level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: a boolean schema never counts, even as a $ref target one level past 500", () => {
    // root 1, p0 ... p498 at 2 ... 500, and the definition `last` at 501.
    const chainTo = (last: Schema): Schema => {
      const $defs: Record<string, Schema> = { last };
      for (let i = 0; i < 499; i++) $defs[`p${i}`] = { $ref: i + 1 < 499 ? `#/$defs/p${i + 1}` : "#/$defs/last" };
      return { $ref: "#/$defs/p0", $defs };
    };
    expect(depthVerdict(chainTo(true)), "rule: boolean schemas apply nothing and never count").toEqual([]);
    expect(depthVerdict(chainTo(false)), "rule: a false schema at 501 still fails, as false, not as too deep").toEqual([["", "false", "/$defs/last"]]);
    expect(depthVerdict(chainTo({})), "rule: an object schema at 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: an anyOf branch counts its deepest schema, whether a deep or a shallow part comes last", () => {
    // e's branch at 4: p0 at 6, last at 6 + n, then a shallow anyOf; applied again one deeper: 7 + n.
    const e: Schema = { anyOf: [{ allOf: [{ $ref: "#/$defs/p0" }, { anyOf: [{ type: "object" }] }] }] };
    expect(depthVerdict(twice("e", e, 493)), "rule: deep part first, level 500 is applied").toEqual([]);
    expect(depthVerdict(twice("e", e, 494)), "rule: deep part first, level 501 is the depth error").toEqual([["", "depth", ""]]);
    // z's branch at 4 is itself an anyOf: p0 at 6, last at 6 + n; applied again one deeper: 7 + n.
    const z: Schema = { anyOf: [{ anyOf: [{ $ref: "#/$defs/p0" }] }] };
    expect(depthVerdict(twice("z", z, 493)), "rule: nested anyOf, level 500 is applied").toEqual([]);
    expect(depthVerdict(twice("z", z, 494)), "rule: nested anyOf, level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  // Arrays (or objects under the key "a") nested `levels` deep around the number 1.
  const deepArray = (levels: number): unknown => arraysAround(1, levels);
  const deepObject = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  l3("a value nested too deep is the one depth error whatever the schema, also one that reports, compares or prints the value", () => {
    for (const levels of [MAX_DEPTH + 1, 100_000]) {
      const array = deepArray(levels);
      const object = deepObject(levels);
      const cases: Array<[Schema, unknown]> = [
        [true, array],
        [false, array],
        [{ type: "string" }, array],
        [{ enum: [1, [1]] }, array],
        [{ const: [[1]] }, array],
        [{ not: {} }, array],
        [{ anyOf: [{ type: "string" }] }, array],
        [{ uniqueItems: true }, [array, array]],
        [{ minItems: 1 }, array],
        [{ items: { $ref: "#" } }, array],
        [{ properties: { x: {} } }, { a: object }],
        [{ additionalProperties: false }, { a: object }],
        [{ properties: { a: { $ref: "#" } } }, object],
        [{ required: ["b"] }, object],
      ];
      // One callEach (realm.ts): each deep value crosses to a graded run's sandbox once, not once a case.
      const results = callEach(validate, cases);
      for (const [i, [schema]] of cases.entries()) {
        const found = results[i].errors.map((e) => [e.path, e.keyword, e.schemaPath]);
        expect(found, `rule: ${levels} levels under ${JSON.stringify(schema)} is one depth error`).toEqual([["", "depth", ""]]);
      }
    }
    const instance = { n: "5", a: deepObject(MAX_DEPTH) };
    const coerced = validate({ properties: { n: { type: "number" } } }, instance, { coerce: true });
    expect([coerced.errors.map((e) => e.keyword), coerced.coercions, coerced.value === instance], "rule: with a depth error nothing is coerced and value is the instance").toEqual([
      ["depth"],
      [],
      true,
    ]);
  });

  l3("exactly MAX_DEPTH levels are fine, one more is not, also through schemas that look at every level", () => {
    const cases: Array<[Schema, (levels: number) => unknown]> = [
      [{ items: { $ref: "#" } }, deepArray],
      [{ properties: { a: { $ref: "#" } } }, deepObject],
      [{ additionalProperties: { $ref: "#" } }, deepObject],
      [{ required: ["a"], properties: { a: { anyOf: [{ type: "integer" }, { $ref: "#" }] } } }, deepObject],
    ];
    // Schemas nested as deep as allowed (100 levels below the root), one level per level of the
    // value, down to a last one with nothing to say about the members of the value it meets.
    const described = (keyword: "properties" | "items", last: Schema): Schema => {
      let schema = last;
      for (let i = 0; i < MAX_DEPTH; i++) schema = keyword === "items" ? { items: schema } : { properties: { a: schema } };
      return schema;
    };
    cases.push([described("properties", { required: [] }), deepObject], [described("items", { items: true }), deepArray]);
    for (const [schema, deep] of cases) {
      const name = JSON.stringify(schema).slice(0, 80);
      expect(verdict(schema, deep(MAX_DEPTH)), `rule: ${MAX_DEPTH} levels under ${name} are fine`).toEqual([]);
      expect(verdict(schema, deep(MAX_DEPTH + 1)), `rule: ${MAX_DEPTH + 1} levels under ${name} are one depth error`).toEqual([["", "depth", ""]]);
    }
  });

  l3("depth counts nesting, not size: many arrays and objects side by side stay one level each, call after call", () => {
    const objects = Array.from({ length: 3 * MAX_DEPTH }, (_, i) => ({ a: i }));
    const arrays = Array.from({ length: 3 * MAX_DEPTH }, (_, i) => [i]);
    const ofObjects: Schema = { items: { properties: { a: { type: "integer" } } } };
    const ofArrays: Schema = { items: { items: { type: "integer" } } };
    for (let round = 0; round < 2; round++) {
      expect(verdict(ofObjects, objects), "rule: 300 objects in an array are 2 levels").toEqual([]);
      expect(verdict(ofArrays, arrays), "rule: 300 arrays in an array are 2 levels").toEqual([]);
      expect(verdict(ofObjects, { x: objects }), "rule: 300 objects in an array in an object are 3 levels").toEqual([]);
      expect(verdict({ items: { properties: { a: { minimum: 0 } } } }, objects), "rule: 300 objects in an array are 2 levels").toEqual([]);
    }
  });

  l3("evaluation depth: an anyOf branch counts its deepest schema when a shallower type-only schema comes after it", () => {
    // As "whether a deep or a shallow part comes last" above, with a number as the instance.
    const e: Schema = { anyOf: [{ allOf: [{ $ref: "#/$defs/p0" }, { type: "integer" }] }] };
    const scalarVerdict = (schema: Schema) => verdict(schema, 1);
    expect(scalarVerdict(twice("e", e, 493)), "rule: deep part first, level 500 is applied").toEqual([]);
    expect(scalarVerdict(twice("e", e, 494)), "rule: deep part first, level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: a schema with nothing but `type`, applied to a number at level 501, is the depth error", () => {
    // root 1, p0 ... p<n-1> at 2 ... n + 1, the definition `last` at n + 2.
    const chainTo = (last: Schema, n: number): Schema => {
      const $defs: Record<string, Schema> = { last };
      for (let i = 0; i < n; i++) $defs[`p${i}`] = { $ref: i + 1 < n ? `#/$defs/p${i + 1}` : "#/$defs/last" };
      return { $ref: "#/$defs/p0", $defs };
    };
    for (const last of [{ type: "integer" }, {}] as Schema[]) {
      expect(verdict(chainTo(last, 498), 1), `rule: ${JSON.stringify(last)} at level 500 is applied`).toEqual([]);
      expect(verdict(chainTo(last, 499), 1), `rule: ${JSON.stringify(last)} at level 501 is the depth error`).toEqual([["", "depth", ""]]);
    }
    // The same with the deepest schema reached inside an anyOf branch applied twice, one level
    // deeper the second time (see "twice" above): last at 5 + n, then at 6 + n.
    const x: Schema = { anyOf: [{ $ref: "#/$defs/p0" }] };
    const withLast = (chain: number): Schema => {
      const schema = twice("x", x, chain) as { $defs: Record<string, Schema> };
      schema.$defs.last = { type: "integer" };
      return schema as Schema;
    };
    expect(verdict(withLast(494), 1), "rule: a type-only schema at level 500 is applied").toEqual([]);
    expect(verdict(withLast(495), 1), "rule: a type-only schema at level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("every error's message is a non-empty string: each extraction, argument and schema error, and both depth errors", () => {
    type Seen = { code: string; message: unknown };
    const extractError = (message: unknown): Seen => {
      const [e] = extractToolCalls(message).errors;
      return { code: e?.code ?? "no error", message: e?.message };
    };
    const argumentsError = (holder: Record<string, unknown>): Seen => {
      const e = extractToolCalls({ name: "f", ...holder }).calls[0]?.argumentsError;
      return { code: e?.code ?? "no argumentsError", message: e?.message };
    };
    const schemaError = (schema: unknown): Seen => {
      try {
        validate(schema as Schema, null);
        return { code: "no error", message: undefined };
      } catch (e) {
        return e instanceof SchemaError ? { code: e.code, message: e.message } : { code: `threw ${(e as Error).name}`, message: undefined };
      }
    };
    const depthError = (schema: Schema, instance: unknown): Seen => {
      const errors = validate(schema, instance).errors;
      return { code: errors.map((e) => `${e.keyword} at "${e.path}"`).join(", "), message: errors[0]?.message };
    };
    const allOf50 = JSON.parse('{"allOf": ['.repeat(50) + '{"items": {"$ref": "#/$defs/d"}}' + "]}".repeat(50)) as Schema;
    const deepSchema = JSON.parse('{"items": '.repeat(101) + "{}" + "}".repeat(101)) as Schema;
    // [what, the error it gives, the code (or keyword) the README gives it]
    const cases: Array<[string, () => Seen, string]> = [
      ["an unclosed tag", () => extractError('<tool_call>{"name": "f"'), "unclosed_tag"],
      ["a tag holding no JSON", () => extractError("<tool_call>get_weather(city=Paris)</tool_call>"), "invalid_json"],
      ["a tag holding a value that is not an object", () => extractError('<tool_call>"f"</tool_call>'), "missing_name"],
      ["a tool_calls entry that is not an object", () => extractError({ tool_calls: ["oops"] }), "missing_name"],
      ["an explicit call without a name", () => extractError({ tool_calls: [{ function: { arguments: "{}" } }] }), "missing_name"],
      ["both arguments and parameters", () => argumentsError({ arguments: "{}", parameters: {} }), "ambiguous_arguments"],
      ["arguments that do not parse", () => argumentsError({ arguments: '{"city": "Par' }), "invalid_json"],
      ["arguments that decode to an array", () => argumentsError({ arguments: "[1]" }), "not_an_object"],
      ["a keyword outside the subset", () => schemaError({ patternProperties: {} }), "unsupported_keyword"],
      ["a format other than the four", () => schemaError({ format: "ipv4" }), "unsupported_keyword"],
      ["an unknown type name", () => schemaError({ type: "float" }), "invalid_keyword"],
      ["a subschema that is neither an object nor a boolean", () => schemaError({ properties: { a: 5 } }), "invalid_keyword"],
      ["a pattern that RegExp rejects", () => schemaError({ pattern: "(" }), "invalid_keyword"],
      ["a $ref that is not # or #/$defs/<name>", () => schemaError({ $ref: "other.json#/a" }), "unsupported_ref"],
      ["a $ref whose name is not valid percent-encoding", () => schemaError({ $ref: "#/$defs/%E0%A4%A" }), "unsupported_ref"],
      ["a $ref to a missing definition", () => schemaError({ $ref: "#/$defs/missing" }), "unresolved_ref"],
      ["a $ref loop", () => schemaError({ anyOf: [{ $ref: "#" }] }), "ref_cycle"],
      ["a catastrophic pattern", () => schemaError({ pattern: "(a+)+" }), "unsafe_pattern"],
      ["a pattern longer than MAX_PATTERN_LENGTH", () => schemaError({ pattern: "x".repeat(MAX_PATTERN_LENGTH + 1) }), "unsafe_pattern"],
      ["a schema nested too deep", () => schemaError(deepSchema), "too_deep"],
      ["an instance nested too deep", () => depthError({}, nestedArray(MAX_DEPTH + 1)), 'depth at ""'],
      ["a validation too deep to evaluate", () => depthError({ $defs: { d: allOf50 }, $ref: "#/$defs/d" }, nestedArray(99)), 'depth at ""'],
    ];
    for (const [what, run, code] of cases) {
      const { code: seen, message } = run();
      expect([what, seen, typeof message === "string" && message.length > 0], `rule: ${what} is ${code}, with a message never empty`).toEqual([what, code, true]);
    }
  });
});

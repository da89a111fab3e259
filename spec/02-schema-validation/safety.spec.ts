// Task 7: the limits that keep a hostile model (or schema) from hurting the process.
import { describe, expect } from "vitest";
import { extractToolCalls, MAX_DEPTH, MAX_PATTERN_LENGTH, SchemaError, validate, type Schema } from "@impl/02-schema-validation";
import { l3 } from "../support/graded.ts";
import { cpuTimeMs } from "../support/time-limits.ts";

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
});

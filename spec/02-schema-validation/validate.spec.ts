// Tasks 3 and 4: the keyword subset, and how errors are reported.
import { describe, expect } from "vitest";
import { SchemaError, validate, type Schema } from "@impl/02-schema-validation";
import { l1, l2 } from "../support/graded.ts";

const valid = (schema: Schema, data: unknown) => validate(schema, data).valid;
const keywords = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => e.keyword);
const pairs = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => [e.path, e.keyword]);

function schemaErrorCode(schema: unknown, data: unknown = {}): string {
  try {
    validate(schema as Schema, data);
  } catch (e) {
    return e instanceof SchemaError ? e.code : `not a SchemaError: ${(e as Error).message}`;
  }
  return "no error";
}

const weather: Schema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    date: { type: "string", format: "date" },
    unit: { enum: ["celsius", "fahrenheit"] },
    days: { type: "integer", minimum: 1, maximum: 14 },
  },
  required: ["city"],
  additionalProperties: false,
};

describe("3. Validate against the keyword subset", () => {
  l1("valid arguments: valid, no errors, the value given back", () => {
    const data = { city: "Paris", date: "2026-05-01", unit: "celsius", days: 3 };
    const r = validate(weather, data);
    expect(r).toEqual({ valid: true, errors: [], value: data, coercions: [] });
  });

  l1("type: each type name, arrays of types, integer means a whole number", () => {
    expect(valid({ type: "string" }, "x")).toBe(true);
    expect(valid({ type: "string" }, 1)).toBe(false);
    expect(valid({ type: "number" }, 1.5)).toBe(true);
    expect(valid({ type: "integer" }, 1.5)).toBe(false);
    expect(valid({ type: "integer" }, 2.0)).toBe(true);
    expect(valid({ type: "boolean" }, "true")).toBe(false);
    expect(valid({ type: "null" }, null)).toBe(true);
    expect(valid({ type: "object" }, [])).toBe(false);
    expect(valid({ type: "array" }, {})).toBe(false);
    expect(valid({ type: ["string", "null"] }, null)).toBe(true);
    expect(valid({ type: ["string", "null"] }, 0)).toBe(false);
  });

  l1("properties, required, additionalProperties false and as a schema", () => {
    expect(keywords(weather, {})).toEqual(["required"]);
    expect(keywords(weather, { city: "Paris", wind: 3 })).toEqual(["additionalProperties"]);
    expect(valid({ properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }, { a: "x", b: 2 })).toBe(true);
    expect(pairs({ properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }, { a: "x", b: "y" })).toEqual([["/b", "type"]]);
  });

  l1("enum and const use deep equality", () => {
    expect(valid({ enum: [1, "a", { x: [1, 2] }] }, { x: [1, 2] })).toBe(true);
    expect(valid({ enum: [1, "a"] }, "1")).toBe(false);
    expect(valid({ const: { a: [1, { b: null }] } }, { a: [1, { b: null }] })).toBe(true);
    expect(valid({ const: { a: 1, b: 2 } }, { b: 2, a: 1 })).toBe(true);
    expect(valid({ const: [1, 2] }, [2, 1])).toBe(false);
  });

  l1("items, minItems, maxItems, uniqueItems with deep equality", () => {
    const schema: Schema = { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 3, uniqueItems: true };
    expect(valid(schema, [1, 2, 3])).toBe(true);
    expect(pairs(schema, [1, "2"])).toEqual([["/1", "type"]]);
    expect(keywords(schema, [])).toEqual(["minItems"]);
    expect(keywords(schema, [1, 2, 3, 4])).toEqual(["maxItems"]);
    expect(keywords(schema, [1, 2, 1])).toEqual(["uniqueItems"]);
    expect(keywords({ uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }])).toEqual(["uniqueItems"]);
    expect(valid({ uniqueItems: true }, [[1], [1, 1]])).toBe(true);
  });

  l2("minLength and maxLength count code points, not UTF-16 units", () => {
    expect(valid({ maxLength: 2 }, "😀😀")).toBe(true);
    expect(valid({ minLength: 3 }, "😀😀")).toBe(false);
    expect(valid({ minLength: 2, maxLength: 2 }, "北京")).toBe(true);
  });

  l2("pattern is a unicode regular expression, unanchored", () => {
    expect(valid({ pattern: "^\\p{Letter}+$" }, "Ωmega")).toBe(true);
    expect(valid({ pattern: "^\\p{Letter}+$" }, "x1")).toBe(false);
    expect(valid({ pattern: "\\d{3}" }, "call 555-1234")).toBe(true);
    expect(valid({ pattern: "^.$" }, "😀")).toBe(true);
  });

  l1("minimum, maximum, exclusiveMinimum, exclusiveMaximum", () => {
    const schema: Schema = { minimum: 1, maximum: 10, exclusiveMinimum: 0, exclusiveMaximum: 10 };
    expect(valid(schema, 1)).toBe(true);
    expect(keywords(schema, 10)).toEqual(["exclusiveMaximum"]);
    expect(keywords(schema, 0)).toEqual(["minimum", "exclusiveMinimum"]);
    expect(valid(schema, "100")).toBe(true);
  });

  l2("multipleOf is float-safe", () => {
    expect(valid({ multipleOf: 0.1 }, 0.3)).toBe(true);
    expect(valid({ multipleOf: 0.01 }, 19.99)).toBe(true);
    expect(valid({ multipleOf: 0.1 }, 0.35)).toBe(false);
    expect(valid({ multipleOf: 3 }, 10)).toBe(false);
    expect(valid({ type: "integer", multipleOf: 0.123456789 }, 1e308)).toBe(false);
  });

  l2("anyOf, oneOf, allOf, not", () => {
    const anyOf: Schema = { anyOf: [{ type: "string" }, { type: "integer", minimum: 0 }] };
    expect(valid(anyOf, 3)).toBe(true);
    expect(keywords(anyOf, -3)).toEqual(["anyOf"]);
    const oneOf: Schema = { oneOf: [{ type: "integer" }, { minimum: 2 }] };
    expect(valid(oneOf, 1)).toBe(true);
    expect(keywords(oneOf, 3)).toEqual(["oneOf"]);
    expect(keywords(oneOf, 1.5)).toEqual(["oneOf"]);
    expect(pairs({ allOf: [{ type: "integer" }, { minimum: 2 }] }, 1.5)).toEqual([["", "type"], ["", "minimum"]]);
    expect(valid({ allOf: [{ type: "integer" }, { minimum: 2 }] }, 3)).toBe(true);
    expect(keywords({ allOf: [{ type: "integer" }, { minimum: 2 }] }, 1)).toEqual(["minimum"]);
    expect(keywords({ not: { type: "null" } }, null)).toEqual(["not"]);
    expect(valid({ not: { type: "null" } }, 0)).toBe(true);
  });

  l2("$ref to #/$defs/..., recursion included, and # for the root", () => {
    const tree: Schema = {
      $defs: { node: { type: "object", properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["value"] } },
      $ref: "#/$defs/node",
    };
    expect(valid(tree, { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] })).toBe(true);
    expect(pairs(tree, { value: 1, children: [{ value: 2, children: [{ value: "3" }] }] })).toEqual([["/children/0/children/0/value", "type"]]);
    const list: Schema = { type: "array", items: { $ref: "#" } };
    expect(valid(list, [[], [[]]])).toBe(true);
    expect(valid(list, [[], [1]])).toBe(false);
    expect(valid({ $defs: { "a/b": { type: "string" } }, $ref: "#/$defs/a~1b" }, "x")).toBe(true);
  });

  l2("format: date, date-time, email, uuid (and only strings are checked)", () => {
    expect(valid({ format: "date" }, "2024-02-29")).toBe(true);
    expect(valid({ format: "date" }, "2023-02-29")).toBe(false);
    expect(valid({ format: "date-time" }, "2024-05-01T10:00:00+08:00")).toBe(true);
    expect(valid({ format: "date-time" }, "2024-05-01 10:00")).toBe(false);
    expect(valid({ format: "email" }, "ann@example.com")).toBe(true);
    expect(valid({ format: "email" }, "ann.example.com")).toBe(false);
    expect(valid({ format: "uuid" }, "123e4567-e89b-12d3-a456-426614174000")).toBe(true);
    expect(valid({ format: "uuid" }, "123e4567e89b12d3a456426614174000")).toBe(false);
    expect(valid({ format: "date" }, 42)).toBe(true);
  });

  l1("boolean schemas: true accepts anything, false nothing", () => {
    expect(valid(true, { any: "thing" })).toBe(true);
    expect(keywords(false, 1)).toEqual(["false"]);
    expect(pairs({ properties: { gone: false } }, { gone: 1 })).toEqual([["/gone", "false"]]);
  });

  l2("annotations are accepted and ignored", () => {
    const schema: Schema = { $schema: "https://json-schema.org/draft/2020-12/schema", title: "t", description: "d", default: 1, examples: [1], $comment: "c", type: "integer" };
    expect(valid(schema, 5)).toBe(true);
    expect(valid(schema, "5")).toBe(false);
  });

  l2("an unsupported keyword, format or $ref is a SchemaError, never silently ignored", () => {
    expect(schemaErrorCode({ type: "object", patternProperties: { "^x": {} } })).toBe("unsupported_keyword");
    expect(schemaErrorCode({ properties: { a: { if: { type: "string" } } } })).toBe("unsupported_keyword");
    expect(schemaErrorCode({ format: "ipv4" })).toBe("unsupported_keyword");
    expect(schemaErrorCode({ $ref: "https://example.com/schema" })).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/missing" })).toBe("unresolved_ref");
    expect(validate({ type: "object" }, {}).valid).toBe(true);
  });

  l2("a supported keyword with a value of the wrong shape is `invalid_keyword`, with its schemaPath", () => {
    expect(schemaErrorCode({ type: "float" })).toBe("invalid_keyword");
    expect(schemaErrorCode({ minLength: -1 })).toBe("invalid_keyword");
    expect(schemaErrorCode({ required: "city" })).toBe("invalid_keyword");
    expect(schemaErrorCode({ multipleOf: 0 })).toBe("invalid_keyword");
    expect(schemaErrorCode({ pattern: "(" })).toBe("invalid_keyword");
    expect(schemaErrorCode({ items: [{ type: "string" }] })).toBe("invalid_keyword");
    try {
      validate({ properties: { a: { type: "float" } } }, {});
      expect.unreachable();
    } catch (e) {
      expect((e as SchemaError).schemaPath).toBe("/properties/a/type");
    }
  });

  l2("the schema is checked whole, even where the instance never goes", () => {
    expect(schemaErrorCode({ properties: { unused: { minimun: 1 } } }, {})).toBe("unsupported_keyword");
    expect(schemaErrorCode({ anyOf: [true, { foo: 1 }] }, 1)).toBe("unsupported_keyword");
  });
});

describe("4. Report every error, with its path", () => {
  l2("all errors, not just the first", () => {
    const r = validate(weather, { date: 42, unit: "kelvin", days: 0, wind: 1 });
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => [e.path, e.keyword])).toEqual([
      ["/city", "required"],
      ["/date", "type"],
      ["/unit", "enum"],
      ["/days", "minimum"],
      ["/wind", "additionalProperties"],
    ]);
  });

  l2("several keywords failing on one value are all reported, in the documented keyword order", () => {
    const schema: Schema = { type: "string", minLength: 5, pattern: "^[a-z]+$", format: "email", enum: ["hello@example.com"] };
    expect(keywords(schema, "AB")).toEqual(["enum", "format", "minLength", "pattern"]);
    const number: Schema = { multipleOf: 2, maximum: 0, minimum: 10 };
    expect(keywords(number, 5)).toEqual(["minimum", "maximum", "multipleOf"]);
  });

  l2("properties in the schema's order, then extra properties in the instance's order", () => {
    const schema: Schema = { properties: { b: { type: "string" }, a: { type: "string" } }, additionalProperties: { type: "string" } };
    expect(validate(schema, { z: 1, a: 1, y: 2, b: 1 }).errors.map((e) => e.path)).toEqual(["/b", "/a", "/z", "/y"]);
  });

  l2("paths are JSON Pointers: nested objects, array indices, ~0 and ~1 escaping", () => {
    const schema: Schema = {
      properties: {
        "a/b": { type: "string" },
        "m~n": { type: "string" },
        list: { items: { properties: { x: { type: "integer" } } } },
        "": { type: "string" },
      },
    };
    const r = validate(schema, { "a/b": 1, "m~n": 1, list: [{ x: 1 }, { x: "no" }], "": 0 });
    expect(r.errors.map((e) => e.path)).toEqual(["/a~1b", "/m~0n", "/list/1/x", "/"]);
  });

  l2("a missing required property is reported at the path where it should be", () => {
    const schema: Schema = { properties: { loc: { type: "object", required: ["city", "country"] } } };
    expect(pairs(schema, { loc: { country: "FR" } })).toEqual([["/loc/city", "required"]]);
  });

  l2("each error carries a schemaPath to its keyword", () => {
    const r = validate(weather, { city: "", days: 99 });
    expect(r.errors.map((e) => e.schemaPath)).toEqual(["/properties/city/minLength", "/properties/days/maximum"]);
    const viaRef = validate({ $defs: { n: { type: "object", properties: { v: { type: "integer" } } } }, items: { $ref: "#/$defs/n" } }, [{ v: "x" }]);
    expect(viaRef.errors.map((e) => [e.path, e.schemaPath])).toEqual([["/0/v", "/$defs/n/properties/v/type"]]);
    expect(validate({ additionalProperties: false }, { x: 1 }).errors[0].schemaPath).toBe("/additionalProperties");
  });

  l2("messages say what was expected and what was got", () => {
    const [e] = validate({ properties: { date: { type: "string", format: "date" } } }, { date: 42 }).errors;
    expect(e.message).toContain("string");
    expect(e.message).toContain("42");
    expect(e.message, "a type error names the format of the same schema").toContain("date");
    const [f] = validate({ format: "date" }, "tomorrow").errors;
    expect(f.message).toContain("date");
    expect(f.message).toContain('"tomorrow"');
    const [m] = validate({ minimum: 10 }, 3).errors;
    expect(m.message).toContain("10");
    expect(m.message).toContain("3");
    const [q] = validate({ enum: ["celsius", "fahrenheit"] }, "kelvin").errors;
    expect(q.message).toContain('"celsius"');
    expect(q.message).toContain('"kelvin"');
    const [r] = validate({ required: ["city"] }, {}).errors;
    expect(r.message).toContain("city");
  });

  l2("the same input always gives the same errors", () => {
    const data = { date: "x", unit: 1, days: 1.5, extra: [1] };
    expect(validate(weather, data), "rule: deterministic, the same errors in the same order").toEqual(validate(weather, data));
  });
});

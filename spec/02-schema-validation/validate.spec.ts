// Tasks 3 and 4: the keyword subset, and how errors are reported.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { SchemaError, validate, type Schema } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../support/graded.ts";
import { callEach } from "../support/realm.ts";
import { dataFor, mutate, mutation, supportedSchema } from "./arbitraries.ts";
import { verdict } from "./helpers.ts";

const valid = (schema: Schema, data: unknown) => validate(schema, data).valid;
const keywords = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => e.keyword);
const pairs = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => [e.path, e.keyword]);

/** What validating `data` against `schema` throws: a SchemaError's code and schemaPath, or "no error". */
function schemaError(schema: unknown, data: unknown = 1): { code: string; schemaPath?: string } {
  try {
    validate(schema as Schema, data);
  } catch (e) {
    return e instanceof SchemaError ? { code: e.code, schemaPath: e.schemaPath } : { code: `not a SchemaError: ${(e as Error).message}` };
  }
  return { code: "no error" };
}

const schemaErrorCode = (schema: unknown, data: unknown = {}): string => schemaError(schema, data).code;

/** `leaf` under `depth` levels of `items`. */
const nested = (depth: number, leaf: Schema = {}): Schema => {
  let schema: Schema = leaf;
  for (let i = 0; i < depth; i++) schema = { items: schema };
  return schema;
};

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
  }, { core: true });

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
  }, { core: true });

  l1("properties, required, additionalProperties false and as a schema", () => {
    expect(keywords(weather, {})).toEqual(["required"]);
    expect(keywords(weather, { city: "Paris", wind: 3 })).toEqual(["additionalProperties"]);
    expect(valid({ properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }, { a: "x", b: 2 })).toBe(true);
    expect(pairs({ properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }, { a: "x", b: "y" })).toEqual([["/b", "type"]]);
  }, { core: true });

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

  l2("a SchemaError's schemaPath points at the offending keyword wherever it is nested: anyOf, oneOf, allOf, not, $defs, properties, items", () => {
    const cases: [unknown, string, string][] = [
      [{ anyOf: [{ type: "null" }, { pattern: "(" }] }, "invalid_keyword", "/anyOf/1/pattern"],
      [{ oneOf: [{ pattern: "(a+)+" }] }, "unsafe_pattern", "/oneOf/0/pattern"],
      [{ allOf: [true, { maxLength: 1.5 }] }, "invalid_keyword", "/allOf/1/maxLength"],
      [{ not: { pattern: "[" } }, "invalid_keyword", "/not/pattern"],
      [{ $defs: { word: { pattern: "(x*)*" } }, $ref: "#/$defs/word" }, "unsafe_pattern", "/$defs/word/pattern"],
      [{ properties: { a: { $ref: "#/$defs/missing" } } }, "unresolved_ref", "/properties/a/$ref"],
      [{ items: { $ref: "other.json" } }, "unsupported_ref", "/items/$ref"],
      [{ additionalProperties: { anyOf: [{ $ref: 5 }] } }, "invalid_keyword", "/additionalProperties/anyOf/0/$ref"],
      [{ not: { oneOf: [{ const: 1 }, { enum: 3 }] } }, "invalid_keyword", "/not/oneOf/1/enum"],
    ];
    for (const [schema, code, schemaPath] of cases) {
      expect(schemaError(schema), JSON.stringify(schema)).toEqual({ code, schemaPath });
    }
  });

  l2("the schema is checked whole, even where the instance never goes", () => {
    expect(schemaErrorCode({ properties: { unused: { minimun: 1 } } }, {})).toBe("unsupported_keyword");
    expect(schemaErrorCode({ anyOf: [true, { foo: 1 }] }, 1)).toBe("unsupported_keyword");
  });

  l2("ref_cycle is found on the schema, whatever the instance and whichever anyOf branch matches first", () => {
    expect(schemaError({ anyOf: [true, { $ref: "#" }] }, "anything").code, "rule: a loop behind a branch that already matched").toBe("ref_cycle");
    const unreachable = schemaError({ $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, type: "string" }, "s");
    expect(unreachable.code, "rule: a loop no instance reaches is still a ref_cycle").toBe("ref_cycle");
    expect(["/$defs/a/$ref", "/$defs/b/allOf/0/$ref"], "rule: schemaPath points at a $ref of the loop").toContain(unreachable.schemaPath);
    expect(schemaError({ properties: { next: { $ref: "#" } }, anyOf: [{ type: "object" }, { not: { $ref: "#/$defs/t" } }], $defs: { t: { items: { $ref: "#" } } } }).code, "rule: loops through properties or items move into the instance").toBe(
      "no error",
    );
  });

  l2("SchemaError is an Error named \"SchemaError\"", () => {
    try {
      validate({ minLength: -1 }, "x");
      expect.unreachable("a SchemaError was expected");
    } catch (e) {
      expect(e, "rule: an Error").toBeInstanceOf(Error);
      expect((e as Error).name, "rule: name is SchemaError").toBe("SchemaError");
    }
  });

  l2("schema shape: required names distinct, annotation values unchecked, nested $defs checked but never referable", () => {
    expect(schemaError({ required: ["city", "date", "city"] }).code, "rule: required names must be distinct").toBe("invalid_keyword");
    expect(schemaError({ description: 5, title: [], default: { $ref: 7 }, examples: "x", $comment: null }).code, "rule: annotation values are not checked").toBe("no error");
    expect(schemaError({ properties: { a: { $defs: { x: { minimum: "1" } } } } }).code, "rule: a nested $defs is checked").toBe("invalid_keyword");
    expect(schemaError({ properties: { a: { $defs: { x: {} } } }, $ref: "#/$defs/x" }).code, "rule: only the root's $defs can be referred to").toBe("unresolved_ref");
    expect(validate({ enum: [] }, null).valid, "rule: an empty enum matches nothing").toBe(false);
  });

  l3("too_deep counts object subschemas: a boolean at level 101 is fine, an object there is not", () => {
    expect(schemaError(nested(101, true), []).code, "rule: a boolean subschema is never too deep").toBe("no error");
    expect(schemaError(nested(101, false), []).code, "rule: a boolean subschema is never too deep").toBe("no error");
    expect(schemaError(nested(101, { type: "array" }), []).code, "rule: an object subschema at level 101 is too_deep").toBe("too_deep");
  });

  l2("non-JSON values: NaN and the infinities have no type and equal nothing; undefined members are absent", () => {
    expect(validate({ type: "number" }, NaN).valid, "rule: NaN is not a number").toBe(false);
    expect(validate({ type: ["integer", "number"] }, Infinity).valid, "rule: Infinity is neither integer nor number").toBe(false);
    expect(validate({ minimum: 0, maximum: 10, multipleOf: 3 }, -Infinity).valid, "rule: number keywords ignore non-finite values").toBe(true);
    expect(validate({ enum: [1, "x", null] }, NaN).valid, "rule: NaN equals nothing").toBe(false);
    expect(validate({ uniqueItems: true }, [NaN, NaN, undefined, undefined]).valid, "rule: NaN and undefined equal nothing, not even themselves").toBe(true);
    expect(validate({ type: "number" }, NaN).errors[0].message, "rule: such values are shown with String").toContain("NaN");
    const schema: Schema = { type: "object", required: ["city"], properties: { city: { type: "string" } }, additionalProperties: false };
    expect(
      validate(schema, { city: undefined, extra: undefined }).errors.map((e) => [e.path, e.keyword]),
      "rule: a member set to undefined is absent for required, properties and additionalProperties",
    ).toEqual([["/city", "required"]]);
    expect(validate({ const: { unit: "C" } }, { unit: "C", note: undefined }).valid, "rule: equality ignores undefined members").toBe(true);
    expect(validate({ items: { type: "null" } }, [null, undefined]).errors.map((e) => [e.path, e.keyword]), "rule: an undefined item has no type").toEqual([
      ["/1", "type"],
    ]);
  });

  l2("multipleOf: the quotient must be finite (a deliberate deviation: 1e308 is not a multiple of 0.5)", () => {
    expect(validate({ multipleOf: 0.5 }, 1e308).valid, "rule: an infinite quotient is not a multiple").toBe(false);
    expect(validate({ multipleOf: 0.5 }, 1e300).valid, "rule: a large finite quotient can be").toBe(true);
  });

  l2("email: `IPv6:` exactly as written, IPv4 leading zeros allowed, single-label and numeric hosts accepted", () => {
    const email = (s: string) => validate({ format: "email" }, s).valid;
    expect(email("ops@[ipv6:fe80::1]"), "rule: IPv6: is case-sensitive").toBe(false);
    expect(email("ops@[IPv6:fe80::1]")).toBe(true);
    expect(email("ops@[010.0.00.1]"), "rule: IPv4 leading zeros allowed").toBe(true);
    expect(email("ops@intranet"), "rule: a single-label host").toBe(true);
    expect(email("ops@42.17"), "rule: an all-numeric host").toBe(true);
  });

  l2("invalid_keyword for every keyword value of the wrong shape", () => {
    const wrong: Schema[] = [
      { minimum: "1" },
      { maximum: null },
      { exclusiveMinimum: "0" },
      { exclusiveMaximum: [] },
      { anyOf: [] },
      { oneOf: [] },
      { allOf: [] },
      { anyOf: "x" },
      { allOf: { type: "string" } },
      { type: [] },
      { type: ["string", "nope"] },
      { type: ["string", "string"] },
      { required: [1] },
      { enum: "a" },
      { uniqueItems: "yes" },
      { pattern: 5 },
      { multipleOf: "2" },
      { multipleOf: 0 },
      { properties: [] },
      { $defs: 5 },
      { items: [{ type: "string" }] },
      { type: "string", pattern: "a)" },
      { type: "string", pattern: "a)+" },
      { type: "string", pattern: "\\kx" },
      { type: "string", pattern: "(?<n" },
      { format: 5 },
      { format: ["email"] },
      { $ref: 1 },
      { $ref: null },
    ];
    expect(wrong.map((schema) => [JSON.stringify(schema), schemaErrorCode(schema)])).toEqual(
      wrong.map((schema) => [JSON.stringify(schema), "invalid_keyword"]),
    );
  });

  l2("$ref: the schema is checked as a whole, so a bad $ref where the instance never goes still throws", () => {
    expect(schemaErrorCode({ properties: { a: { $ref: "#/$defs/nope" } } }, {})).toBe("unresolved_ref");
    expect(schemaErrorCode({ properties: { a: { $ref: "#/definitions/a" } }, $defs: { a: {} } }, {})).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/a/b", $defs: { a: { $defs: { b: {} } } } }, 1)).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "x#/$defs/a", $defs: { a: {} } }, 1)).toBe("unsupported_ref");
    // <name> is percent-decoded: a broken escape is not a name at all (unsupported), a good one is.
    expect(schemaErrorCode({ $ref: "#/$defs/%E0%A4%A", $defs: { a: {} } }, 1)).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/a%2", $defs: { a: {} } }, 1)).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/%61", $defs: { a: { type: "number" } } }, 1)).toBe("no error");
    expect(schemaErrorCode({ $ref: "#/$defs/a", $defs: { a: { type: "number" } } }, 1)).toBe("no error");
  });

  l3("schema depth: 100 levels of subschemas below the root are fine, 101 are too_deep, through any keyword", () => {
    expect(schemaErrorCode(nested(100), [])).toBe("no error");
    expect(schemaErrorCode(nested(101), [])).toBe("too_deep");
    let viaProperties: Schema = {};
    for (let i = 0; i < 150; i++) viaProperties = { properties: { a: viaProperties } };
    expect(schemaErrorCode(viaProperties, {})).toBe("too_deep");
    let viaAnyOf: Schema = {};
    for (let i = 0; i < 150; i++) viaAnyOf = { anyOf: [viaAnyOf] };
    expect(schemaErrorCode(viaAnyOf, 1)).toBe("too_deep");
  });

  l2("JSON equality: an array never equals an object", () => {
    expect(validate({ const: [] }, {}).valid).toBe(false);
    expect(validate({ enum: [{}] }, []).valid).toBe(false);
    expect(validate({ const: {} }, {}).valid).toBe(true);
  });

  l2("email: host labels of 1 to 63 characters, no leading or trailing -, literal IPv4 (0-255) and IPv6 exactly", () => {
    const check = (email: string) => validate({ format: "email" }, email).valid;
    const label63 = "a".repeat(63);
    expect(check(`x@${label63}.com`)).toBe(true);
    expect(check(`x@${label63}b.com`)).toBe(false);
    expect(check("x@ab-c.example-host.com")).toBe(true);
    expect(check("x@a.b.co")).toBe(true);
    expect(check("x@-ab.com")).toBe(false);
    expect(check("x@ab-.com")).toBe(false);
    expect(check("x@a.b-.com")).toBe(false);
    expect(check("x@[IPv6:::1]")).toBe(true);
    expect(check("x@[IPv6:::1]x")).toBe(false);
    expect(check("x@[192.168.100.200]")).toBe(true);
    expect(check("x@[255.255.255.255]")).toBe(true);
    expect(check("x@[256.1.1.1]")).toBe(false);
    expect(check("x@[1.2.3.4]x")).toBe(false);
    expect(check("x@[1.2.3]")).toBe(false);
  });

  l2("date-time: offsets up to 23:59; a leap second is valid exactly at 23:59 UTC once the offset is taken away", () => {
    const check = (s: string) => validate({ format: "date-time" }, s).valid;
    expect(check("2024-01-01T00:00:00+23:59")).toBe(true);
    expect(check("2024-01-01T00:00:00-23:59")).toBe(true);
    expect(check("1991-01-01T00:59:60+01:00")).toBe(true);
    expect(check("1990-12-31T23:29:60-00:30")).toBe(true);
    expect(check("1990-12-31T23:59:60-00:30")).toBe(false);
  });

  l2("without coerce, value is the instance itself", () => {
    const instance = { a: 1, b: [1] };
    expect(validate({ type: "object" }, instance).value).toBe(instance);
    expect(validate({ type: "object" }, instance, { coerce: false }).value).toBe(instance);
  });

  l2("JSON equality: arrays item by item with their lengths, members absent when undefined on either side, infinities equal to nothing", () => {
    expect(valid({ uniqueItems: true }, [[2], [2, undefined]]), "rule: arrays of different lengths differ").toBe(true);
    expect(valid({ enum: [{ p: "q", r: undefined }] }, { p: "q" }), "rule: an undefined member of the allowed value is absent").toBe(true);
    expect(valid({ uniqueItems: true }, [{ m: [], n: undefined }, { m: [] }]), "rule: an undefined member of the earlier item is absent").toBe(false);
    expect(valid({ uniqueItems: true }, [-Infinity, -Infinity]), "rule: -Infinity equals nothing, not even itself").toBe(true);
  });

  l2("email: an IP literal is the whole domain, brackets included", () => {
    for (const s of ["x@[[IPv6:fe80::1]", "x@[[10.0.0.1]"]) expect(valid({ format: "email" }, s), s).toBe(false);
    for (const s of ["x@[IPv6:fe80::1]", "x@[10.0.0.1]"]) expect(valid({ format: "email" }, s), s).toBe(true);
  });

  l2("a $ref loop through anyOf across two definitions is ref_cycle", () => {
    let code: string | undefined;
    try {
      validate({ $defs: { a: { anyOf: [{ type: "null" }, { $ref: "#/$defs/b" }] }, b: { anyOf: [{ $ref: "#/$defs/a" }] } } }, null);
    } catch (e) {
      code = (e as SchemaError).code;
    }
    expect(code).toBe("ref_cycle");
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

  l2("uniqueItems names the earliest item equal to one before it: [x, y, y, x] reports y at its two indexes", () => {
    const items = [10, 11, 12, 13, 14, "x-ray", "yankee", "yankee", "x-ray"];
    const [error] = validate({ uniqueItems: true }, items).errors;
    expect(error?.message, "rule: the first item found twice is the earliest second occurrence").toContain('"yankee"');
    expect(error?.message, "rule: not the pair that opens and closes the array").not.toContain('"x-ray"');
    expect(error?.message, "rule: both indexes of that item").toMatch(/\b6\b[^]*\b7\b/);
  });

  l2("messages: 60 UTF-16 code units; additionalProperties: false names the property; a false schema through $ref reports `false`", () => {
    const emoji = "😀".repeat(40); // 80 code units, 40 code points
    const message = validate({ type: "number" }, emoji).errors[0]?.message ?? "";
    expect(message, "rule: the cut counts code units").toContain(`${JSON.stringify(emoji).slice(0, 57)}...`);
    expect(message, "rule: the cut counts code units").not.toContain(JSON.stringify(emoji).slice(0, 59));
    const extra = validate({ properties: {}, additionalProperties: false }, { colour_hint: 1 }).errors;
    expect(extra.map((e) => e.keyword)).toEqual(["additionalProperties"]);
    expect(extra[0].message, "rule: the extra property's name").toContain("colour_hint");
    const viaRef = validate({ additionalProperties: { $ref: "#/$defs/never" }, $defs: { never: false } }, { k: 1 }).errors;
    expect(viaRef.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: a false schema reached through $ref is a false schema").toEqual([["/k", "false", "/$defs/never"]]);
  });

  l2("schemaPath points at the failing keyword, for every keyword", () => {
    const cases: Array<[Schema, unknown, string]> = [
      [{ enum: [1] }, 2, "/enum"],
      [{ const: 1 }, 2, "/const"],
      [{ required: ["a"] }, {}, "/required"],
      [{ minItems: 2 }, [1], "/minItems"],
      [{ maxItems: 1 }, [1, 2], "/maxItems"],
      [{ uniqueItems: true }, [1, 1], "/uniqueItems"],
      [{ items: { type: "string" } }, [1], "/items/type"],
      [{ allOf: [{}, { type: "string" }] }, 1, "/allOf/1/type"],
      [{ anyOf: [{ type: "string" }] }, 1, "/anyOf"],
      [{ oneOf: [{ type: "string" }] }, 1, "/oneOf"],
      [{ not: { type: "number" } }, 1, "/not"],
      [{ format: "date" }, "x", "/format"],
      [{ minLength: 2 }, "x", "/minLength"],
      [{ maxLength: 1 }, "xy", "/maxLength"],
      [{ pattern: "^a" }, "b", "/pattern"],
      [{ minimum: 2 }, 1, "/minimum"],
      [{ maximum: 0 }, 1, "/maximum"],
      [{ exclusiveMinimum: 1 }, 1, "/exclusiveMinimum"],
      [{ exclusiveMaximum: 1 }, 1, "/exclusiveMaximum"],
      [{ multipleOf: 2 }, 1, "/multipleOf"],
      [{ type: "object", properties: { child: { $ref: "#" } } }, { child: 5 }, "/type"],
    ];
    for (const [schema, data, schemaPath] of cases) {
      const errors = validate(schema, data).errors;
      expect([JSON.stringify(schema), errors.map((e) => e.schemaPath)]).toEqual([JSON.stringify(schema), [schemaPath]]);
    }
  });

  l2("each message holds the keyword's own values: the enum, the const and the limit", () => {
    const message = (schema: Schema, data: unknown) => validate(schema, data).errors[0]?.message ?? "";
    expect(message({ enum: ["celsius", "kelvin"] }, "x")).toContain('["celsius","kelvin"]');
    expect(message({ const: { a: 1 } }, 2)).toContain('{"a":1}');
    expect(message({ minimum: 17 }, 3)).toContain("17");
    expect(message({ exclusiveMaximum: 23 }, 30)).toContain("23");
    expect(message({ multipleOf: 7 }, 3)).toContain("7");
    expect(message({ maxLength: 2 }, "abc")).toContain("2");
  });

  l2("uniqueItems: the message names the first item found twice and the indexes of both", () => {
    const items = [...Array.from({ length: 11 }, (_, i) => i * 100), { unit: "kelvin" }, 1200, { unit: "kelvin" }, 1200];
    const errors = validate({ uniqueItems: true }, items).errors;
    expect(errors.map((e) => e.keyword)).toEqual(["uniqueItems"]);
    expect(errors[0].message).toContain('{"unit":"kelvin"}');
    expect(errors[0].message).toMatch(/\b11\b/);
    expect(errors[0].message).toMatch(/\b13\b/);
  });

  l2("the got value is JSON cut to 60 characters: 57 and ... when longer, whole when it fits", () => {
    const long = "y".repeat(100);
    const cut = validate({ type: "number" }, long).errors[0].message;
    expect(cut).toContain(JSON.stringify(long).slice(0, 57) + "...");
    expect(cut).not.toContain(JSON.stringify(long).slice(0, 58));
    const fits = "z".repeat(58); // 60 characters once quoted
    expect(validate({ type: "number" }, fits).errors[0].message).toContain(JSON.stringify(fits));
  });

  l2("length, item-count and number bounds: each message holds the limit and what was got", () => {
    const trues = (n: number) => Array.from({ length: n }, () => true);
    // [schema, value, the limit, what was got: any one of them will do]
    const cases: Array<[Schema, unknown, string, string[]]> = [
      [{ minLength: 5 }, "ab", "5", ['"ab"']],
      [{ maxLength: 2 }, "abcd", "2", ['"abcd"']],
      // For minItems/maxItems the number of items is enough (or the array itself, rendered).
      [{ minItems: 17 }, trues(3), "17", ["3", JSON.stringify(trues(3))]],
      [{ maxItems: 4 }, trues(9), "4", ["9", JSON.stringify(trues(9))]],
      [{ maximum: 17 }, 30, "17", ["30"]],
      [{ exclusiveMinimum: 41 }, 5, "41", ["5"]],
      [{ exclusiveMaximum: 23 }, 30, "23", ["30"]],
      [{ multipleOf: 7 }, 3, "7", ["3"]],
    ];
    for (const [schema, value, limit, got] of cases) {
      const message = validate(schema, value).errors[0]?.message ?? "";
      const label = `${JSON.stringify(schema)} with ${JSON.stringify(value)}: ${JSON.stringify(message)}`;
      expect(message.includes(limit), `${label}: rule: the limit`).toBe(true);
      expect(got.some((part) => message.includes(part)), `${label}: rule: what was got`).toBe(true);
    }
  });

  l2("a type message names every allowed type name, each one on its own (not run together with another)", () => {
    // A type name standing alone: no letter right before or after it.
    const named = (message: string, name: string) => new RegExp(`(?<![A-Za-z])${name}(?![A-Za-z])`).test(message);
    const cases: Array<[Schema, unknown, string[]]> = [
      [{ type: ["string", "null"] }, 42, ["string", "null"]],
      [{ type: ["integer", "boolean", "array"] }, "x", ["integer", "boolean", "array"]],
      [{ type: ["number", "object"], format: "uuid" }, true, ["number", "object", "uuid"]],
    ];
    for (const [schema, value, names] of cases) {
      const message = validate(schema, value).errors[0]?.message ?? "";
      for (const name of names) expect(named(message, name), `${JSON.stringify(schema)}: ${JSON.stringify(message)} names ${name}`).toBe(true);
    }
  });

  l2("a ref_cycle SchemaError points at the $ref that loops", () => {
    try {
      validate({ anyOf: [{ $ref: "#" }] }, 1);
      expect.unreachable("a ref_cycle was expected");
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaError);
      expect([(e as SchemaError).code, (e as SchemaError).schemaPath]).toEqual(["ref_cycle", "/anyOf/0/$ref"]);
    }
  });

  l2("a $ref loop through `not` is a ref_cycle too, pointing at its $ref", () => {
    const codeAndPath = (schema: unknown): [string, string] => {
      const { code, schemaPath = "" } = schemaError(schema);
      return [code, schemaPath];
    };
    expect(codeAndPath({ not: { $ref: "#" } }), "rule: a chain of $ref and not steps back to the root").toEqual(["ref_cycle", "/not/$ref"]);
    expect(codeAndPath({ $defs: { a: { not: { $ref: "#/$defs/a" } } } }), "rule: even where no instance would go").toEqual(["ref_cycle", "/$defs/a/not/$ref"]);
    expect(codeAndPath({ not: { $ref: "#/$defs/a" }, $defs: { a: { type: "string" } } }), "rule: a $ref under not that leads elsewhere is fine").toEqual(["no error", ""]);
  });

  l2("every failing keyword is named in `keyword`: the string, array and number bounds", () => {
    expect(keywords({ maxLength: 2 }, "abc")).toEqual(["maxLength"]);
    expect(keywords({ minLength: 4 }, "abc")).toEqual(["minLength"]);
    expect(keywords({ maxItems: 1 }, [1, 2])).toEqual(["maxItems"]);
    expect(keywords({ exclusiveMaximum: 3 }, 3)).toEqual(["exclusiveMaximum"]);
  });
});

describe("4. Report every error, with its path (order)", () => {
  l2.property("the same schema and instance always give the same result, whatever that schema validated before", () => {
    // An implementation may keep things between calls (a compiled schema, say); nothing it keeps
    // may change a later result. Each instance is validated in a first pass, then again in the
    // reverse order, twice in a row.
    const schemaAndInstances = supportedSchema.chain((schema) =>
      fc.tuple(fc.constant(schema), fc.array(fc.tuple(dataFor(schema, schema as Record<string, unknown>), mutation), { minLength: 2, maxLength: 6 })),
    );
    fc.assert(
      fc.property(schemaAndInstances, ([schema, pairs]) => {
        const instances = pairs.map(([data, m]) => mutate(data, m));
        // Every validation in one callEach (realm.ts), in the order of a first pass, then the
        // reverse order, each instance twice in a row.
        const order = [...instances.keys(), ...[...instances.keys()].reverse().flatMap((i) => [i, i])];
        const results = callEach(validate, order.map((i) => [schema as Schema, instances[i]] as const)).map((r) => JSON.stringify(r));
        const first = results.slice(0, instances.length);
        for (const [k, i] of order.entries()) {
          if (k >= instances.length) expect(results[k], "rule: the same schema and instance give the same errors").toBe(first[i]);
        }
      }),
    );
  });

  l2("results do not depend on the objects the same schema validated before: other keys, another order, the same number of keys", () => {
    const schema: Schema = {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      required: ["a"],
      additionalProperties: false,
    };
    const verdict = (instance: unknown) => validate(schema, instance).errors.map((e) => [e.path, e.keyword]);
    const instances: Array<[unknown, string[][]]> = [
      [{ a: 1, b: 2 }, []],
      [{ a: 1, c: 2 }, [["/c", "additionalProperties"]]],
      [{ b: 1, a: 2 }, []],
      [{ b: 1, c: 2 }, [["/a", "required"], ["/c", "additionalProperties"]]],
      [{ a: 1, b: 2 }, []],
      [{ c: 1, b: 2 }, [["/a", "required"], ["/c", "additionalProperties"]]],
      [{ a: 1 }, []],
      [{ b: 1 }, [["/a", "required"]]],
      [{ a: 1, b: "2" }, [["/b", "type"]]],
    ];
    for (const [instance, expected] of instances) {
      expect(verdict(instance), `rule: the errors of ${JSON.stringify(instance)} are its own`).toEqual(expected);
    }
  });
});

describe("4. Report every error, with its path (schemaPath)", () => {
  l2("a false root schema's error points at the root: schemaPath \"\"", () => {
    expect(verdict(false, 1), "rule: for a false schema, schemaPath is the path of that schema").toEqual([["", "false", ""]]);
  });

  l2("an error inside an additionalProperties subschema has that subschema's schemaPath", () => {
    expect(verdict({ additionalProperties: { type: "string" } }, { x: 1 }), "rule: schemaPath points at the failing keyword").toEqual([
      ["/x", "type", "/additionalProperties/type"],
    ]);
  });
});

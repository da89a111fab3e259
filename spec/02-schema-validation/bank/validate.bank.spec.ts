// Held-out bank, kata 2, tasks 3 and 4: the validator and its errors, with schemas the visible
// specs do not use and random cases against plain oracles.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { SchemaError, validate, type Schema } from "@impl/02-schema-validation";
import { l1, l2 } from "../../support/graded.ts";
import { ajvValid } from "../ajv-oracle.ts";
import { PROPERTY_NAMES } from "../arbitraries.ts";
import { escape, pairs, schemaError, valid } from "./helpers.ts";

const booking: Schema = {
  type: "object",
  properties: {
    hotel: { type: "string", minLength: 2, maxLength: 40 },
    nights: { type: "integer", minimum: 1, maximum: 30 },
    guests: { type: "array", minItems: 1, items: { type: "object", properties: { name: { type: "string" }, age: { type: "integer", exclusiveMinimum: 0 } }, required: ["name"] } },
    room: { enum: ["single", "double", "suite"] },
    checkIn: { type: "string", format: "date" },
  },
  required: ["hotel", "nights", "guests"],
  additionalProperties: false,
};

describe("3. Validate against the keyword subset", () => {
  l1("a booking schema: good arguments pass, each broken one is found", () => {
    const good = { hotel: "Ritz", nights: 2, guests: [{ name: "Ann", age: 30 }], room: "suite", checkIn: "2026-02-28" };
    expect(validate(booking, good)).toEqual({ valid: true, errors: [], value: good, coercions: [] });
    expect(pairs(booking, { hotel: "R", nights: 0, guests: [{ age: 0 }], room: "penthouse", checkIn: "2026-02-29", pets: true })).toEqual([
      ["/hotel", "minLength"], ["/nights", "minimum"], ["/guests/0/name", "required"], ["/guests/0/age", "exclusiveMinimum"],
      ["/room", "enum"], ["/checkIn", "format"], ["/pets", "additionalProperties"],
    ]);
  });

  l2("date-time: leap seconds only at 23:59 UTC, lower-case t and z, no 24:00, an offset required", () => {
    const cases: [string, boolean][] = [
      ["2024-06-30T23:59:60Z", true], ["2024-07-01T00:59:60+01:00", true], ["2024-06-30T23:59:60+01:00", false],
      ["2024-05-01t10:00:00.123z", true], ["2024-05-01T24:00:00Z", false], ["2024-05-01T10:00:00+24:00", false],
      ["2024-05-01T10:00:00", false], ["2024-05-01T10:60:00Z", false], ["2024-02-30T10:00:00Z", false],
    ];
    for (const [s, ok] of cases) expect(valid({ format: "date-time" }, s), s).toBe(ok);
  });

  l2("email: dot-atoms, quoted locals, IP literals, split at the last @", () => {
    const cases: [string, boolean][] = [
      ["a.b+c@sub.example.org", true], ['"john doe"@example.com', true], ["a@[127.0.0.1]", true], ["a@[IPv6:::1]", true],
      ["a@x", true], ["a..b@x.com", false], [".a@x.com", false], ["a@-x.com", false], ["a@[256.0.0.1]", false],
      ["a@b@example.com", false], ["é@x.com", false], ["@x.com", false], ["a@", false],
    ];
    for (const [s, ok] of cases) expect(valid({ format: "email" }, s), s).toBe(ok);
  });

  l2("date and uuid: centuries, month lengths, ASCII digits, either case of hex", () => {
    const cases: [string, string, boolean][] = [
      ["date", "1900-02-29", false], ["date", "2000-02-29", true], ["date", "2024-04-31", false], ["date", "2024-1-01", false],
      ["date", "２０２４-01-01", false], ["date", "2024-00-10", false], ["date", "2024-12-31", true],
      ["uuid", "123E4567-E89B-12D3-A456-426614174000", true], ["uuid", "123e4567-e89b-12d3-a456-42661417400g", false],
      ["uuid", "123e4567-e89b12d3-a456-426614174000", false],
    ];
    for (const [format, s, ok] of cases) expect(valid({ format }, s), `${format} ${s}`).toBe(ok);
  });

  l2.property("date: valid exactly when the day exists in that month (a calendar oracle)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        const text = `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
        const date = new Date(Date.UTC(2000, m - 1, d));
        date.setUTCFullYear(y);
        const exists = m >= 1 && m <= 12 && d >= 1 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
        expect(valid({ format: "date" }, text), text).toBe(exists);
      }),
    );
  });

  l2.property("multipleOf: k steps of a decimal step are multiples, k and a half steps are not", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5000, max: 5000 }), fc.constantFrom(0.1, 0.01, 0.2, 0.05, 0.3, 2.5, 7), (k, step) => {
        expect(valid({ multipleOf: step }, k * step), `${k} * ${step}`).toBe(true);
        expect(valid({ multipleOf: step }, (k + 0.5) * step), `${k + 0.5} * ${step}`).toBe(false);
      }),
    );
  });

  l2("schema errors: each code with the schemaPath of the offending keyword", () => {
    expect(schemaError({ prefixItems: [] })).toBe("unsupported_keyword /prefixItems");
    expect(schemaError({ properties: { a: { $id: "x" } } })).toBe("unsupported_keyword /properties/a/$id");
    expect(schemaError({ dependentRequired: {} })).toBe("unsupported_keyword /dependentRequired");
    expect(schemaError({ format: "hostname" })).toBe("unsupported_keyword /format");
    expect(schemaError({ $ref: "#/definitions/x" })).toBe("unsupported_ref /$ref");
    expect(schemaError({ type: [] })).toBe("invalid_keyword /type");
    expect(schemaError({ type: ["string", "string"] })).toBe("invalid_keyword /type");
    expect(schemaError({ enum: "a" })).toBe("invalid_keyword /enum");
    expect(schemaError({ anyOf: [] })).toBe("invalid_keyword /anyOf");
    expect(schemaError({ additionalProperties: 1 })).toBe("invalid_keyword /additionalProperties");
    expect(schemaError({ items: { properties: { a: { maxLength: 1.5 } } } })).toBe("invalid_keyword /items/properties/a/maxLength");
    expect(schemaError({ items: { $ref: "#/$defs/nope" } })).toMatch(/^unresolved_ref /);
    expect(valid({ properties: { a: { maxLength: 1 } } }, { a: "x" })).toBe(true);
  });

  l2("$ref names are percent-decoded and ~-unescaped; keywords next to a $ref apply too", () => {
    const schema: Schema = {
      $defs: { "a b": { type: "string" }, "m~n": { type: "integer" } },
      properties: { p: { $ref: "#/$defs/a%20b" }, q: { $ref: "#/$defs/m~0n", minimum: 3 } },
    };
    expect(pairs(schema, { p: 1, q: 2 })).toEqual([["/p", "type"], ["/q", "minimum"]]);
    expect(valid(schema, { p: "x", q: 3 })).toBe(true);
  });

  l2("minLength and maxLength count astral characters as one", () => {
    expect(valid({ minLength: 3 }, "𝄞𝄞"), "rule: two code points (four code units) are shorter than 3").toBe(false);
    expect(valid({ maxLength: 2 }, "𠜎𠜎"), "rule: two CJK extension-B characters are length 2").toBe(true);
    expect(valid({ minLength: 2, maxLength: 2 }, "👍🏽"), "rule: an emoji with a skin-tone modifier is two code points").toBe(true);
    expect(pairs({ type: "object", properties: { tag: { type: "string", maxLength: 3 } } }, { tag: "🇫🇷🇩🇪" }), "rule: four regional indicators are 4").toEqual([["/tag", "maxLength"]]);
  });

  l2("type: integer is a whole number however written, object is neither an array nor null, a list accepts any of its names", () => {
    const cases: [Schema, unknown, boolean][] = [
      [{ type: "integer" }, -7.0, true], [{ type: "integer" }, 1e21, true], [{ type: "integer" }, 0.5, false], [{ type: "integer" }, "3", false],
      [{ type: "number" }, 12, true], [{ type: "number" }, "12", false], [{ type: "boolean" }, 0, false], [{ type: "null" }, false, false],
      [{ type: "object" }, null, false], [{ type: "object" }, [], false], [{ type: "array" }, { 0: "a", length: 1 }, false], [{ type: "array" }, [], true],
      [{ type: ["boolean", "integer"] }, true, true], [{ type: ["boolean", "integer"] }, 4, true], [{ type: ["boolean", "integer"] }, 4.5, false],
      [{ type: ["array", "object"] }, null, false], [{ type: ["null"] }, null, true], [{ type: "string" }, "", true],
    ];
    for (const [schema, data, ok] of cases) expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ok);
  });

  l2("const and enum: JSON equality, deep, in any key order, numbers by value, never across types", () => {
    const cases: [Schema, unknown, boolean][] = [
      [{ const: { b: [1, { c: 2 }], a: null } }, { a: null, b: [1.0, { c: 2 }] }, true],
      [{ const: { a: 1 } }, { a: 1, b: 2 }, false], [{ const: { a: 1, b: 2 } }, { a: 1 }, false],
      [{ const: [1, 2] }, [2, 1], false], [{ const: [1, 2] }, [1, 2, 2], false], [{ const: ["a"] }, { 0: "a" }, false],
      [{ const: 0 }, -0, true], [{ const: "1" }, 1, false], [{ const: null }, false, false], [{ const: {} }, [], false],
      [{ const: false }, 0, false], [{ const: [] }, [], true], [{ const: { a: [] } }, { a: {} }, false],
      [{ enum: [{ x: 1 }, [1], "s"] }, [1.0], true], [{ enum: [{ x: 1 }, [1], "s"] }, { x: "1" }, false],
      [{ enum: [null, 2] }, null, true], [{ enum: [null, 2] }, 2.0, true], [{ enum: [null, 2] }, "2", false],
    ];
    for (const [schema, data, ok] of cases) expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ok);
  });

  l2("bounds meet at the limit: minimum and maximum include it, the exclusive ones and the item and length counts as the table says", () => {
    const cases: [Schema, unknown, boolean][] = [
      [{ minimum: -2.5 }, -2.5, true], [{ minimum: -2.5 }, -2.6, false], [{ maximum: 0 }, 0, true], [{ maximum: 0 }, 1e-9, false],
      [{ exclusiveMinimum: 4 }, 4, false], [{ exclusiveMinimum: 4 }, 4.01, true], [{ exclusiveMaximum: -1 }, -1, false], [{ exclusiveMaximum: -1 }, -1.5, true],
      [{ minItems: 2 }, [1, 2], true], [{ minItems: 2 }, [1], false], [{ maxItems: 0 }, [], true], [{ maxItems: 0 }, [null], false],
      [{ minLength: 0 }, "", true], [{ maxLength: 0 }, "", true], [{ maxLength: 0 }, " ", false], [{ minLength: 4, maxLength: 4 }, "汉字汉字", true],
      [{ multipleOf: 3 }, 10, false], [{ multipleOf: 3 }, -9, true], [{ multipleOf: 0.25 }, 1e308, false], [{ multipleOf: 1.5 }, 4.5, true],
    ];
    for (const [schema, data, ok] of cases) expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ok);
  });

  l2("pattern: unanchored, with the u flag (one dot is one astral character, \\p{...} works), and only on strings", () => {
    expect(valid({ pattern: "cd" }, "abcde"), "rule: unanchored, it matches in the middle").toBe(true);
    expect(valid({ pattern: "^cd" }, "abcde")).toBe(false);
    expect(valid({ pattern: "^.$" }, "😀"), "rule: with the u flag . is one code point").toBe(true);
    expect(valid({ pattern: "^\\p{Lu}+$" }, "ÉCOLE"), "rule: with the u flag \\p{Lu} is a property escape").toBe(true);
    expect(valid({ pattern: "^\\p{Lu}+$" }, "école")).toBe(false);
    expect(valid({ pattern: "^x$" }, 5), "rule: a pattern ignores numbers").toBe(true);
    expect(valid({ pattern: "^x$" }, ["y"]), "rule: a pattern ignores arrays").toBe(true);
  });

  l2("anyOf, oneOf, allOf and not count their matching branches", () => {
    const cases: [Schema, unknown, boolean][] = [
      [{ anyOf: [{ type: "string" }, { minimum: 3 }] }, 4, true], [{ anyOf: [{ type: "string" }, { minimum: 3 }] }, 2, false],
      [{ oneOf: [{ type: "string" }, { minimum: 3 }] }, 4, true], [{ oneOf: [{ minimum: 1 }, { minimum: 3 }] }, 4, false],
      [{ oneOf: [{ minimum: 1 }, { minimum: 3 }] }, 0, false], [{ oneOf: [{ minimum: 1 }, { minimum: 3 }, { maximum: 0 }] }, 2, true],
      [{ allOf: [{ minimum: 1 }, { maximum: 3 }] }, 2, true], [{ allOf: [{ minimum: 1 }, { maximum: 3 }] }, 4, false],
      [{ not: { type: "string" } }, 1, true], [{ not: { type: "string" } }, "1", false], [{ not: {} }, null, false], [{ not: false }, null, true],
      [{ anyOf: [false, true] }, [], true], [{ oneOf: [true, true] }, [], false], [{ allOf: [true, false] }, 1, false],
    ];
    for (const [schema, data, ok] of cases) expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ok);
    expect(pairs({ oneOf: [{ minimum: 1 }, { minimum: 3 }], not: { type: "integer" } }, 5), "rule: one error each, at the value's path").toEqual([["", "oneOf"], ["", "not"]]);
    expect(pairs({ properties: { n: { anyOf: [{ type: "string" }, { type: "null" }] } } }, { n: 1 }), "rule: anyOf reports one error of its own, not its branches'").toEqual([["/n", "anyOf"]]);
  });

  l2("boolean schemas anywhere: true accepts, false refuses with keyword false at that schema's path", () => {
    expect(validate({ items: false }, []).valid, "rule: items false accepts the empty array").toBe(true);
    expect(validate({ items: false }, [0, 1]).errors.map((e) => [e.path, e.keyword, e.schemaPath])).toEqual([["/0", "false", "/items"], ["/1", "false", "/items"]]);
    expect(validate({ properties: { a: true, b: false } }, { a: [1], c: 2 }).valid, "rule: a false property that is absent is never applied").toBe(true);
    expect(validate({ allOf: [true, { anyOf: [true] }, { not: false }] }, { x: 1 }).valid).toBe(true);
    expect(validate({ additionalProperties: true, properties: { p: false } }, { p: null }).errors.map((e) => [e.path, e.keyword, e.schemaPath])).toEqual([["/p", "false", "/properties/p"]]);
  });

  l2("type-specific keywords look only at their own type; annotations of any value are ignored, deep inside too", () => {
    const everything: Schema = { maxLength: 0, pattern: "^$", format: "uuid", maximum: -1, multipleOf: 7, required: ["x"], additionalProperties: false, maxItems: 0, uniqueItems: true };
    for (const data of [true, null]) expect(valid(everything, data), JSON.stringify(data)).toBe(true);
    expect(pairs(everything, "ab").map((p) => p[1]), "rule: a string meets only the string keywords").toEqual(["format", "maxLength", "pattern"]);
    expect(pairs(everything, 3).map((p) => p[1]), "rule: a number meets only the number keywords").toEqual(["maximum", "multipleOf"]);
    expect(pairs(everything, { y: 1 }).map((p) => p[1]), "rule: an object meets only the object keywords").toEqual(["required", "additionalProperties"]);
    expect(pairs(everything, [1, 1]).map((p) => p[1]), "rule: an array meets only the array keywords").toEqual(["maxItems", "uniqueItems"]);
    const annotated: Schema = { items: { title: [], description: {}, default: 3, examples: "e", $comment: 0, $schema: null, type: "number" } };
    expect(pairs(annotated, [1, "x"])).toEqual([["/1", "type"]]);
  });

  l2("values JSON cannot hold: no type for NaN and the infinities, undefined members absent, undefined items of no type, equal to nothing", () => {
    expect(valid({ type: ["number", "integer", "null"] }, Infinity)).toBe(false);
    expect(valid({ maximum: 0, multipleOf: 2 }, Infinity), "rule: the number keywords ignore Infinity").toBe(true);
    expect(valid({ exclusiveMinimum: 0 }, NaN), "rule: the number keywords ignore NaN").toBe(true);
    expect(valid({ enum: [null] }, undefined)).toBe(false);
    expect(valid({ uniqueItems: true }, [NaN, NaN]), "rule: NaN equals nothing, not even itself").toBe(true);
    expect(valid({ uniqueItems: true }, [undefined, undefined])).toBe(true);
    expect(valid({ uniqueItems: true }, [{ a: 1, b: undefined }, { a: 1 }]), "rule: an undefined member is absent when comparing").toBe(false);
    expect(valid({ const: { k: "v" } }, { k: "v", gone: undefined })).toBe(true);
    expect(valid({ properties: { a: { type: "string" } }, additionalProperties: false }, { a: undefined, z: undefined })).toBe(true);
    expect(pairs({ items: { type: "number" } }, [1, undefined, 2]), "rule: an undefined item has no type").toEqual([["/1", "type"]]);
    // eslint-disable-next-line no-sparse-arrays
    expect(pairs({ items: { type: "number" } }, [1, , 2]), "rule: a hole is an item of no type").toEqual([["/1", "type"]]);
    expect(validate({ type: "integer" }, Infinity).errors[0].message).toContain("Infinity");
  });

  l2("$ref: the root recurses, a %2F or a percent-encoded ~1 names a slash, a $defs below the root is never named", () => {
    const tree: Schema = { type: "object", properties: { kids: { items: { $ref: "#" } }, n: { type: "integer" } } };
    expect(pairs(tree, { n: 1, kids: [{ n: 2, kids: [{ n: "3" }] }] })).toEqual([["/kids/0/kids/0/n", "type"]]);
    const slash: Schema = { $defs: { "x/y": { type: "boolean" } }, properties: { p: { $ref: "#/$defs/x%2Fy" }, q: { $ref: "#/$defs/x%7E1y" } } };
    expect(validate(slash, { p: 1, q: 2 }).errors.map((e) => e.schemaPath)).toEqual(["/$defs/x~1y/type", "/$defs/x~1y/type"]);
    expect(schemaError({ properties: { a: { $defs: { inner: {} } } }, $ref: "#/$defs/inner" })).toBe("unresolved_ref /$ref");
    expect(schemaError({ $defs: { a: {} }, items: { $ref: "#/$defs/a/b" } })).toBe("unsupported_ref /items/$ref");
    expect(schemaError({ $defs: { a: {} }, $ref: "#/$defs/" })).toBe("unsupported_ref /$ref");
    expect(schemaError({ $defs: { a: {} }, $ref: "#/$defs/%ZZ" })).toBe("unsupported_ref /$ref");
    expect(schemaError({ $ref: 7 })).toBe("invalid_keyword /$ref");
    expect(schemaError({ $ref: "#/$defs/a" })).toBe("unresolved_ref /$ref");
  });

  l2("the schema is checked whole, whatever the instance, down to parts the instance never reaches", () => {
    const unreached: [Schema, string][] = [
      [{ anyOf: [{ type: "string" }, { properties: { q: { minimum: "1" } } }] }, "invalid_keyword /anyOf/1/properties/q/minimum"],
      [{ items: { pattern: "(b+)*" } }, "unsafe_pattern /items/pattern"],
      [{ not: { format: "ipv6" } }, "unsupported_keyword /not/format"],
      [{ $defs: { never: { if: {} } } }, "unsupported_keyword /$defs/never/if"],
      [{ additionalProperties: { required: ["a", "a"] } }, "invalid_keyword /additionalProperties/required"],
    ];
    for (const [schema, expected] of unreached) {
      for (const data of ["s", 0, null, [], {}]) expect(schemaError(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(expected);
    }
  });

  l2("invalid_keyword: each supported keyword refuses a value of the wrong shape, at its own path", () => {
    const shapes: [Schema, string][] = [
      [{ required: [1] }, "/required"], [{ required: "a" }, "/required"], [{ minItems: -1 }, "/minItems"], [{ maxLength: "2" }, "/maxLength"],
      [{ multipleOf: 0 }, "/multipleOf"], [{ multipleOf: -2 }, "/multipleOf"], [{ maximum: "5" }, "/maximum"], [{ exclusiveMinimum: null }, "/exclusiveMinimum"],
      [{ uniqueItems: "yes" }, "/uniqueItems"], [{ properties: [] }, "/properties"], [{ $defs: { a: 5 } }, "/$defs/a"], [{ oneOf: [{}, null] }, "/oneOf/1"],
      [{ allOf: {} }, "/allOf"], [{ not: [] }, "/not"], [{ format: 5 }, "/format"], [{ pattern: "(" }, "/pattern"], [{ type: "int" }, "/type"],
      [{ type: ["string", 1] }, "/type"], [{ properties: { a: { items: "x" } } }, "/properties/a/items"],
    ];
    for (const [schema, at] of shapes) expect(schemaError(schema), JSON.stringify(schema)).toBe(`invalid_keyword ${at}`);
    expect(schemaError({ minItems: 0, maxItems: 0, minLength: 0, required: [], enum: [], properties: {}, $defs: {}, type: ["null"] }), "rule: the edges of each shape are allowed").toBe("no error");
  });

  l2("JSON equality is deep on both sides: every item and every member must match, and an array is not an object", () => {
    const cases: [Schema, unknown, boolean][] = [
      [{ const: {} }, 1, false], [{ const: {} }, "", false], [{ const: [1, 2] }, [1, 3], false], [{ const: [1, 2] }, [1], false],
      [{ const: { a: 1, b: 2 } }, { a: 1, b: 3 }, false], [{ const: { a: 1, b: 2 } }, { b: 2, c: 1 }, false], [{ const: [1] }, [1, undefined], false],
      [{ const: Infinity }, Infinity, false], [{ enum: [[{ a: [] }]] }, [{ a: [] }], true],
    ];
    for (const [schema, data, ok] of cases) expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ok);
    expect(valid({ uniqueItems: true }, [Infinity, Infinity]), "rule: an infinity equals nothing, not even itself").toBe(true);
    expect(valid({ uniqueItems: true }, [{ a: 1 }, { a: 1, b: undefined }]), "rule: the undefined member is absent on either side").toBe(false);
    expect(valid({ uniqueItems: true }, [[1, 2], [1, 2, 3]])).toBe(true);
  });

  l2("formats are whole-string matches: nothing before or after, offsets of either sign and their minutes counted", () => {
    const cases: [string, string, boolean][] = [
      ["date", "x2024-01-01", false], ["date", "2024-01-01x", false], ["date-time", " 2024-01-01T00:00:00Z", false], ["date-time", "2024-01-01T00:00:00Zx", false],
      ["uuid", "x123e4567-e89b-12d3-a456-426614174000", false], ["uuid", "123e4567-e89b-12d3-a456-4266141740001", false],
      ["date-time", "2024-06-30T18:59:60-05:00", true], ["date-time", "2024-07-01T00:29:60+00:30", true], ["date-time", "2024-06-30T23:29:60+00:30", false],
      ["date-time", "2024-01-01T10:00:00+23:59", true], ["date-time", "2024-01-01T10:00:00-00:60", false], ["date-time", "2024-01-01T10:00:00+23:00", true],
      ["email", "a@x.com-", false], ["email", "a@-", false], ["email", "a@[IPv6:1]x", false], ["email", "a@[[IPv6:1]", false],
      ["email", "a@[1.2.3.4]x", false], ["email", "a@[[1.2.3.4]", false], ["email", "a@[1.22.3.44]", true], ["email", "a@[255.255.255.255]", true],
      ["email", "a@[1.2.3.256]", false], ["email", "@", false], ["email", "ab@", false], ["email", "x@y", true],
    ];
    for (const [format, s, ok] of cases) expect(valid({ format }, s), `${format} ${s}`).toBe(ok);
  });

  l2("the class SchemaError: an Error named SchemaError with its code and schemaPath", () => {
    let thrown: unknown;
    try {
      validate({ properties: { a: { minimum: "0" } } }, {});
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SchemaError);
    expect(thrown).toBeInstanceOf(Error);
    expect([(thrown as SchemaError).name, (thrown as SchemaError).code, (thrown as SchemaError).schemaPath]).toEqual(["SchemaError", "invalid_keyword", "/properties/a/minimum"]);
  });

  l2("more shapes: a pattern that is not a string or that RegExp rejects, a multipleOf that is a string; $ref forms and a root that refers to itself", () => {
    for (const pattern of [5, "(", "a)", "[a", "a{2,1}", "a\\"]) expect(schemaError({ pattern }), String(pattern)).toBe("invalid_keyword /pattern");
    expect(schemaError({ multipleOf: "2" })).toBe("invalid_keyword /multipleOf");
    expect(schemaError({ $defs: { a: {} }, $ref: "x#/$defs/a" })).toBe("unsupported_ref /$ref");
    expect(schemaError({ $ref: "#" }), "rule: a root that is only a $ref to itself").toBe("ref_cycle /$ref");
    expect(schemaError({ allOf: [{ not: { $ref: "#" } }] })).toBe("ref_cycle /allOf/0/not/$ref");
    expect(validate({ properties: { n: { type: "integer" }, next: { $ref: "#" } } }, { next: { next: { n: "x" } } }).errors.map((e) => [e.path, e.schemaPath]), "rule: through # the path continues from the root").toEqual([
      ["/next/next/n", "/properties/n/type"],
    ]);
  });

  l2("a false root schema refuses everything with one error at the root; a type error names the schema's format too", () => {
    for (const data of [1, null, {}, [], "x"]) expect(validate(false, data).errors.map((e) => [e.path, e.keyword, e.schemaPath])).toEqual([["", "false", ""]]);
    const [t] = validate({ type: "string", format: "uuid" }, 5).errors;
    expect([t.keyword, t.message.includes("string"), t.message.includes("uuid"), t.message.includes("5")]).toEqual(["type", true, true, true]);
    expect(pairs({ maxItems: 1, minItems: 3 }, [1, 2]), "rule: the keywords of the array bounds").toEqual([["", "minItems"], ["", "maxItems"]]);
  });
});

describe("4. Report every error, with its path", () => {
  l2("the documented order across required, properties, items, additionalProperties, allOf and anyOf", () => {
    const schema: Schema = {
      type: "object",
      required: ["a"],
      properties: { a: { type: "string" }, l: { type: "array", minItems: 2, items: { type: "integer" } } },
      additionalProperties: false,
      allOf: [{ required: ["z"] }],
      anyOf: [{ required: ["q"] }],
    };
    const errors = validate(schema, { l: [1.5], x: 1 }).errors;
    expect(errors.map((e) => [e.path, e.keyword, e.schemaPath])).toEqual([
      ["/a", "required", "/required"],
      ["/l", "minItems", "/properties/l/minItems"],
      ["/l/0", "type", "/properties/l/items/type"],
      ["/x", "additionalProperties", "/additionalProperties"],
      ["/z", "required", "/allOf/0/required"],
      ["", "anyOf", "/anyOf"],
    ]);
  });

  l2.property("every property of the wrong type is reported, in the schema's order, at its escaped path", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(PROPERTY_NAMES, { minLength: 1 }), fc.shuffledSubarray(PROPERTY_NAMES), (schemaOrder, wrong) => {
        const schema: Schema = { type: "object", properties: Object.fromEntries(schemaOrder.map((k) => [k, { type: "string" }])) };
        const data = Object.fromEntries(schemaOrder.map((k) => [k, wrong.includes(k) ? 1 : "ok"]));
        const expected = schemaOrder.filter((k) => wrong.includes(k)).map((k) => [`/${escape(k)}`, "type"]);
        expect(pairs(schema, data)).toEqual(expected);
      }),
    );
  });

  l2.property("additionalProperties false: one error per extra key, in the instance's key order", () => {
    const extra = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }).filter((k) => k !== "__proto__" && !["a", "b"].includes(k)), { maxLength: 5 });
    fc.assert(
      fc.property(extra, (keys) => {
        const data: Record<string, unknown> = { a: 1 };
        for (const k of keys) data[k] = k;
        data.b = 2;
        const r = validate({ properties: { a: {}, b: {} }, additionalProperties: false }, data);
        expect(r.errors.map((e) => [e.path, e.keyword])).toEqual(Object.keys(data).filter((k) => k !== "a" && k !== "b").map((k) => [`/${escape(k)}`, "additionalProperties"]));
      }),
    );
  });

  l2("uniqueItems names the earliest second occurrence and its first: deep-equal objects, a triple, nested paths; one error per array", () => {
    const onlyUnique = (schema: Schema, data: unknown) => validate(schema, data).errors.filter((e) => e.keyword === "uniqueItems");
    const hasIndex = (message: string, i: number) => new RegExp(`(^|\\D)${i}(\\D|$)`).test(message);
    const spanning = onlyUnique({ uniqueItems: true }, ["kilo", { id: "lima" }, ["mike"], { id: "lima" }, "kilo", ["mike"]]);
    expect(spanning.map((e) => e.path), "rule: one error per array").toEqual([""]);
    expect(spanning[0].message, "rule: the earliest item equal to one before it").toContain('{"id":"lima"}');
    expect(spanning[0].message, "rule: not the pair that opens and closes the array").not.toContain('"kilo"');
    expect(spanning[0].message, "rule: not a later duplicate").not.toContain('["mike"]');
    expect([hasIndex(spanning[0].message, 1), hasIndex(spanning[0].message, 3)], "rule: the indexes of its two occurrences").toEqual([true, true]);
    const triple = onlyUnique({ uniqueItems: true }, ["oscar", "papa", "oscar", "oscar"]);
    expect(triple[0]?.message).toContain('"oscar"');
    expect([hasIndex(triple[0].message, 0), hasIndex(triple[0].message, 2)], "rule: a third occurrence does not move the pair: 0 and 2").toEqual([true, true]);
    const reordered = onlyUnique({ properties: { legs: { items: { uniqueItems: true } } } }, { legs: [["x"], [{ from: "rome", to: "oslo" }, "quebec", { to: "oslo", from: "rome" }]] });
    expect(reordered.map((e) => [e.path, e.schemaPath]), "rule: objects with the same members in another order are equal").toEqual([["/legs/1", "/properties/legs/items/uniqueItems"]]);
    expect(reordered[0].message.includes('{"from":"rome","to":"oslo"}') || reordered[0].message.includes('{"to":"oslo","from":"rome"}'), "rule: the item, rendered with JSON.stringify").toBe(true);
    expect([hasIndex(reordered[0].message, 0), hasIndex(reordered[0].message, 2)]).toEqual([true, true]);
    expect(valid({ uniqueItems: true }, [{ a: "x" }, { a: "x", b: null }, "1", 1, 0, false, null, {}, []]), "rule: the other side: no two of these are equal").toBe(true);
  });

  l2.property("uniqueItems: exactly one error, naming the earliest item equal to one before it and both its indexes (a pairwise oracle)", () => {
    const token = fc.stringMatching(/^[a-z]{1,5}$/);
    const shapes = [
      (t: string) => t,
      (t: string) => ({ k: t }),
      (t: string) => [t],
      (t: string) => ({ k: t, j: [t, null] }),
    ];
    // The shape of each copy: objects with two members come with either key order.
    const render = (shape: number, t: string, flip: boolean): unknown => (shape === 3 && flip ? { j: [t, null], k: t } : shapes[shape](t));
    const canonical = (v: unknown): string =>
      Array.isArray(v) ? `[${v.map(canonical).join(",")}]`
      : v !== null && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`
      : JSON.stringify(v);
    const hasIndex = (message: string, i: number) => new RegExp(`(^|\\D)${i}(\\D|$)`).test(message);
    fc.assert(
      fc.property(
        fc.uniqueArray(token, { minLength: 2, maxLength: 4 }),
        fc.nat(3),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        fc.constantFrom("root", "property", "item" as const),
        (pool, shape, picks, flipLast, where) => {
          // The first token opens and closes the array, so the pair that spans it is never the answer
          // when the middle repeats itself.
          const items = [render(shape, pool[0], false), ...picks.map(([n, flip]) => render(shape, pool[1 + (n % (pool.length - 1))], flip)), render(shape, pool[0], flipLast)];
          let pair: [number, number] | undefined;
          for (let j = 1; j < items.length && !pair; j++) for (let i = 0; i < j && !pair; i++) if (canonical(items[i]) === canonical(items[j])) pair = [i, j];
          const [i, j] = pair!;
          const [schema, data, path]: [Schema, unknown, string] =
            where === "root" ? [{ uniqueItems: true }, items, ""]
            : where === "property" ? [{ type: "object", properties: { "stop list": { type: "array", uniqueItems: true } } }, { "stop list": items }, "/stop list"]
            : [{ items: { uniqueItems: true } }, [[], items], "/1"];
          const errors = validate(schema, data).errors;
          expect(errors.map((e) => [e.path, e.keyword])).toEqual([[path, "uniqueItems"]]);
          const message = errors[0].message;
          expect(message.includes(JSON.stringify(items[i])) || message.includes(JSON.stringify(items[j])), `the item at ${i} and ${j}`).toBe(true);
          expect([hasIndex(message, i), hasIndex(message, j)], `indexes ${i} and ${j}`).toEqual([true, true]);
          const wrong = items.findIndex((v, a) => a !== i && a !== j && canonical(v) !== canonical(items[j]) && items.some((w, b) => b > a && canonical(w) === canonical(v)));
          if (wrong >= 0) expect(message, "another repeated item").not.toContain(JSON.stringify(items[wrong]));
        },
      ),
    );
  });

  l2("messages: const, pattern, maxItems and multipleOf name what was expected and what was got", () => {
    const [c] = validate({ const: "on" }, "off").errors;
    expect(c.message).toContain('"on"');
    expect(c.message).toContain('"off"');
    const [p] = validate({ pattern: "^[A-Z]{3}$" }, "abc").errors;
    expect(p.message).toContain("^[A-Z]{3}$");
    const [m] = validate({ maxItems: 2 }, [1, 2, 3, 4]).errors;
    expect(m.message).toContain("2");
    expect(m.message).toContain("4");
    const [q] = validate({ multipleOf: 7 }, 50).errors;
    expect(q.message).toContain("7");
    expect(q.message).toContain("50");
    const [t] = validate({ type: ["integer", "null"] }, "x".repeat(100)).errors;
    expect(t.message).toContain("integer");
    expect(t.message).toContain("null");
    expect(t.message).toContain(JSON.stringify("x".repeat(100)).slice(0, 57) + "...");
  });

  l2("the order within one schema: $ref first, then type, enum, const, then the string, number and array keywords as listed, combinators last", () => {
    const keywords = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => e.schemaPath);
    expect(keywords({ const: "b", enum: ["a"], type: "integer", $defs: { s: { maxLength: 1 } }, $ref: "#/$defs/s" }, "cc")).toEqual(["/$defs/s/maxLength", "/type", "/enum", "/const"]);
    expect(keywords({ pattern: "^z", maxLength: 1, minLength: 1, format: "uuid" }, "abc")).toEqual(["/format", "/maxLength", "/pattern"]);
    expect(keywords({ pattern: "^z", minLength: 9, format: "email" }, "abc")).toEqual(["/format", "/minLength", "/pattern"]);
    expect(keywords({ multipleOf: 7, exclusiveMaximum: 1, exclusiveMinimum: 6, maximum: 0, minimum: 10 }, 5)).toEqual(["/minimum", "/maximum", "/exclusiveMinimum", "/exclusiveMaximum", "/multipleOf"]);
    expect(keywords({ items: { type: "string" }, uniqueItems: true, maxItems: 1 }, [1, 1])).toEqual(["/maxItems", "/uniqueItems", "/items/type", "/items/type"]);
    expect(keywords({ not: {}, oneOf: [{}, {}], anyOf: [false], allOf: [{ type: "string" }, { minimum: 2 }] }, 1)).toEqual(["/allOf/0/type", "/allOf/1/minimum", "/anyOf", "/oneOf", "/not"]);
  });

  l2("paths: ~ and / escaped in every segment, required at the missing member below its parent, the extra member for additionalProperties", () => {
    const schema: Schema = {
      properties: { "~1": { properties: { "/": { type: "string" } }, required: ["a/b", "c~d"] }, list: { items: { additionalProperties: false } } },
    };
    expect(pairs(schema, { "~1": { "/": 0 }, list: [{}, { "x~/y": 1 }] })).toEqual([
      ["/~01/a~1b", "required"], ["/~01/c~0d", "required"], ["/~01/~1", "type"], ["/list/1/x~0~1y", "additionalProperties"],
    ]);
    expect(pairs({ additionalProperties: { type: "number" } }, { "": "e" }), "rule: the empty key is a segment too").toEqual([["/", "type"]]);
  });

  l2("schemaPath: through properties, items, additionalProperties and allOf, and from a definition once a $ref is followed", () => {
    const schema: Schema = {
      $defs: { id: { type: "string", minLength: 3 } },
      properties: { ids: { items: { $ref: "#/$defs/id" } }, meta: { additionalProperties: { allOf: [{ type: "integer" }] } } },
    };
    expect(validate(schema, { ids: ["abc", "x", 5], meta: { k: 1.5 } }).errors.map((e) => [e.path, e.schemaPath])).toEqual([
      ["/ids/1", "/$defs/id/minLength"], ["/ids/2", "/$defs/id/type"], ["/meta/k", "/properties/meta/additionalProperties/allOf/0/type"],
    ]);
  });

  l2("messages quote what was got, cut at 60 code units, and name what was expected", () => {
    const message = (schema: Schema, data: unknown) => validate(schema, data).errors[0].message;
    const big = { list: Array.from({ length: 30 }, (_, i) => i) };
    expect(message({ type: "string" }, big), "rule: an object is quoted with JSON.stringify, cut to 57 then ...").toContain(JSON.stringify(big).slice(0, 57) + "...");
    const exactly60 = JSON.stringify("y".repeat(58));
    expect(message({ type: "number" }, "y".repeat(58)), "rule: a 60-character rendering is not cut").toContain(exactly60);
    expect(message({ enum: [{ a: 1 }, [2]] }, 3)).toContain('{"a":1}');
    expect(message({ enum: [{ a: 1 }, [2]] }, 3)).toContain("[2]");
    expect(message({ minItems: 3 }, [1])).toContain("3");
    expect(message({ maxLength: 2 }, "long")).toContain('"long"');
    expect(message({ exclusiveMinimum: 8 }, 8)).toMatch(/8[^]*8/);
    expect(message({ format: "uuid" }, "nope")).toContain("uuid");
    expect(message({ format: "uuid" }, "nope")).toContain('"nope"');
    expect(message({ required: ["zip code"] }, {})).toContain("zip code");
    expect(message({ additionalProperties: false }, { stray: 1 })).toContain("stray");
    const uniq = message({ uniqueItems: true }, ["q", { z: [1] }, "r", { z: [1.0] }]);
    for (const part of ['{"z":[1]}', "1", "3"]) expect(uniq, part).toContain(part);
  });

  l2.property("deterministic: one schema used for call after call, with members in any order, answers as a fresh copy of it does, and as Ajv does", () => {
    const schema: Schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: ["number", "null"] }, d: { type: "object", properties: { x: { type: "boolean" } } } },
      required: ["a", "b"],
      additionalProperties: { type: "boolean" },
    };
    const member = fc.oneof(fc.constantFrom("s", "", 1, 2.5, -0, true, false, null), fc.constant({ x: true }), fc.constant({ x: 1 }), fc.constant([1]));
    const call = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e", "f"), member, { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 8 }), (calls) => {
        for (const data of calls) {
          const fresh = structuredClone(schema);
          expect(validate(schema, data), JSON.stringify(data)).toEqual(validate(fresh, data));
          expect(validate(schema, data).valid, JSON.stringify(data)).toBe(ajvValid(schema, data));
        }
      }),
    );
  });
});

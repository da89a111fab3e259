// Held-out bank, kata 2, tasks 3 to 7: the validator, its errors, coercion, feedback and safety
// limits, with schemas the visible specs do not use and random cases against plain oracles.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { formatFeedback, MAX_DEPTH, MAX_FEEDBACK_ERRORS, MAX_PATTERN_LENGTH, SchemaError, validate, type Schema, type ValidationError } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../../support/graded.ts";
import { ajvValid } from "../ajv-oracle.ts";
import { PROPERTY_NAMES, toolName } from "../arbitraries.ts";

const valid = (schema: Schema, data: unknown) => validate(schema, data).valid;
const pairs = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => [e.path, e.keyword]);

function schemaError(schema: unknown, data: unknown = {}): string {
  try {
    validate(schema as Schema, data);
  } catch (e) {
    return e instanceof SchemaError ? `${e.code} ${e.schemaPath}` : `not a SchemaError: ${(e as Error).message}`;
  }
  return "no error";
}

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

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
});

describe("5. Coerce, narrowly and only when asked", () => {
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

describe("7. Safety limits", () => {
  l3("more patterns refused before they run, and harmless look-alikes accepted", () => {
    for (const p of ["(x+x+)+y", "(\\w+\\s?)*$", "(a|b)*c", "(?<n>a)\\k<n>", "(a)\\1", "(?:a+){2,}", "(a?)+", "x".repeat(MAX_PATTERN_LENGTH + 1)]) {
      expect(schemaError({ pattern: p }, ""), p.slice(0, 20)).toBe("unsafe_pattern /pattern");
    }
    for (const p of ["^(ab)*$", "[(a+)+]", "\\(a+\\)+", "(a+){2}", "x".repeat(MAX_PATTERN_LENGTH)]) {
      expect(schemaError({ pattern: p }, ""), p.slice(0, 20)).toBe("no error");
    }
  });

  l3(`objects and arrays mixed: ${MAX_DEPTH} levels are fine, one more is one depth error whatever the schema`, () => {
    const nest = (levels: number) => {
      let d: unknown = 1;
      for (let i = 0; i < levels; i++) d = i % 2 ? [d] : { k: d };
      return d;
    };
    expect(validate(true, nest(MAX_DEPTH)).errors).toEqual([]);
    for (const schema of [true, { type: "string" }, { items: false }] as Schema[]) {
      expect(validate(schema, nest(MAX_DEPTH + 1)).errors).toEqual([{ path: "", keyword: "depth", message: expect.any(String), schemaPath: "" }]);
    }
  });

  l3("a $ref loop through allOf is ref_cycle; recursion that moves into the instance is fine", () => {
    expect(schemaError({ $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" }, 1)).toMatch(/^ref_cycle /);
    const list: Schema = { $defs: { l: { anyOf: [{ type: "null" }, { type: "object", properties: { next: { $ref: "#/$defs/l" } } }] } }, $ref: "#/$defs/l" };
    expect(valid(list, { next: { next: { next: null } } })).toBe(true);
    expect(valid(list, { next: { next: 3 } })).toBe(false);
  });

  l3("toString, constructor and __proto__ are ordinary names in required and properties", () => {
    expect(pairs({ required: ["toString", "constructor"], properties: { ["__proto__"]: { type: "string" } } }, {})).toEqual([
      ["/toString", "required"], ["/constructor", "required"],
    ]);
    expect(valid({ required: ["toString"] }, { toString: 1 })).toBe(true);
    expect(pairs({ properties: { constructor: { type: "string" } } }, JSON.parse('{"constructor": 5}'))).toEqual([["/constructor", "type"]]);
  });

  l3("a $ref loop through not, among anyOf, oneOf and allOf steps or across definitions, is ref_cycle at one of its $refs; through items or properties under not it is fine", () => {
    const across = schemaError({ $defs: { guard: { not: { anyOf: [{ type: "null" }, { $ref: "#/$defs/check" }] } }, check: { allOf: [{ $ref: "#/$defs/guard" }] } }, properties: { v: { $ref: "#/$defs/guard" } } });
    expect(["ref_cycle /$defs/guard/not/anyOf/1/$ref", "ref_cycle /$defs/check/allOf/0/$ref"], "rule: two definitions looping through not and anyOf").toContain(across);
    expect(schemaError({ not: { not: { not: { $ref: "#" } } } }), "rule: three nots around a $ref to the root").toBe("ref_cycle /not/not/not/$ref");
    expect(schemaError({ $defs: { x: { oneOf: [{ type: "string" }, { not: { $ref: "#/$defs/x" } }] } }, $ref: "#/$defs/x" }, "abc"), "rule: a not under a oneOf branch").toBe("ref_cycle /$defs/x/oneOf/1/not/$ref");
    const fine: Schema[] = [
      { not: { items: { $ref: "#" } } },
      { not: { properties: { k: { not: { $ref: "#" } } } } },
      { not: { additionalProperties: { $ref: "#/$defs/n" } }, $defs: { n: { not: { $ref: "#" } } } },
    ];
    for (const schema of fine) {
      for (const data of [1, [], [1], [[1]], { k: 1 }, { k: { k: [] } }, { z: { z: 1 } }]) {
        expect(schemaError(schema, data), JSON.stringify(schema)).toBe("no error");
        expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ajvValid(schema, data));
      }
    }
  });

  l3.property("a loop of in-place steps with a not in it, through one to three definitions, is ref_cycle at one of its $refs; one step into the instance makes it fine", () => {
    const step = fc.constantFrom("not", "anyOf", "oneOf", "allOf", "$ref" as const);
    const chain = fc.array(fc.tuple(step, fc.nat(2)), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(chain, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom("properties", "items", "additionalProperties" as const),
        fc.boolean(),
        fc.boolean(),
        (chains, notAt, moveAt, move, moves, rootRef) => {
          // A `not` on purpose, somewhere in one definition's chain.
          const which = notAt % chains.length;
          const withNot = chains.map((c, i) => (i === which ? [...c.slice(0, notAt % (c.length + 1)), ["not", 0] as [string, number], ...c.slice(notAt % (c.length + 1))] : c));
          const moving = moveAt % withNot.length;
          const refs: string[] = [];
          const $defs: Record<string, unknown> = {};
          withNot.forEach((steps, d) => {
            const at = `/$defs/def${d}`;
            const build = (k: number, here: string): unknown => {
              if (moves && d === moving && k === steps.length) {
                const inner = build(k + 1, move === "properties" ? `${here}/properties/p` : `${here}/${move}`);
                return move === "properties" ? { properties: { p: inner } } : { [move]: inner };
              }
              if (k >= steps.length) {
                refs.push(`${here}/$ref`);
                return { $ref: `#/$defs/def${(d + 1) % withNot.length}` };
              }
              const [kind, position] = steps[k];
              if (kind === "not") return { not: build(k + 1, `${here}/not`) };
              if (kind === "$ref") return { $ref: "#/$defs/leaf", ...(build(k + 1, here) as object) };
              const list: unknown[] = [{ type: "string" }, { minimum: 1 }].slice(0, position);
              list.push(build(k + 1, `${here}/${kind}/${list.length}`));
              return { [kind]: list };
            };
            $defs[`def${d}`] = build(0, at);
          });
          $defs.leaf = { description: "no loop here" };
          const schema = rootRef ? { $ref: "#/$defs/def0", $defs } : { properties: { start: { $ref: "#/$defs/def0" } }, $defs };
          const got = schemaError(schema, { start: 1 });
          if (moves) expect(got, JSON.stringify(schema)).toBe("no error");
          else {
            expect(got.split(" ")[0], JSON.stringify(schema)).toBe("ref_cycle");
            expect(refs, "a $ref of the loop").toContain(got.split(" ")[1]);
          }
        },
      ),
    );
  });
});

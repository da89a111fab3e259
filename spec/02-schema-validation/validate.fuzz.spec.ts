// Properties of the validator: Ajv agrees on every verdict, error paths point into the data,
// coercion stays narrow, JSON Pointers escape what they must.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { validate, type Schema } from "@impl/02-schema-validation";
import { l2, l3 } from "../support/graded.ts";
import { ajvValid } from "./ajv-oracle.ts";
import { dataFor, mutate, mutation, nastyJson, nastyString, parentPointer, pointerExists, supportedSchema, type JsonSchema } from "./arbitraries.ts";

type Obj = Record<string, unknown>;

/** A schema, data shaped by it, and one mutation of that data. */
const schemaAndData = supportedSchema.chain((schema) =>
  fc.tuple(fc.constant(schema), dataFor(schema, schema as Obj), mutation).map(([s, data, m]) => ({ schema: s, data: mutate(data, m) })),
);

describe("3. Validate against the keyword subset", () => {
  l2.property("Ajv (draft 2020-12, allErrors) gives the same verdict on random schemas and data", () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(schemaAndData, ({ schema, data }) => {
        const expected = ajvValid(schema, data);
        const r = validate(schema as Schema, data);
        if (expected) valid++;
        else invalid++;
        expect(r.valid).toBe(expected);
        expect(r.errors.length === 0).toBe(expected);
      }),
    );
    // The generator must exercise both verdicts, or the comparison proves little.
    expect(Math.min(valid, invalid)).toBeGreaterThan(0);
    // Ajv compiles every generated schema (about 1 ms each): 0.7 s idle, 1.1 s under load, so the
    // default limit (spec/support/time-limits.ts) leaves room for FC_NUM_RUNS raised tenfold.
  });
});

describe("4. Report every error, with its path", () => {
  l2.property("every error path exists in the data, or is a missing required property whose parent exists", () => {
    fc.assert(
      fc.property(schemaAndData, ({ schema, data }) => {
        for (const e of validate(schema as Schema, data).errors) {
          if (e.keyword === "required") {
            expect(pointerExists(data, parentPointer(e.path)), e.path).toBe(true);
            expect(pointerExists(data, e.path), e.path).toBe(false);
          } else {
            expect(pointerExists(data, e.path), `${e.keyword} at ${e.path}`).toBe(true);
          }
          expect(typeof e.message === "string" && e.message.length > 0).toBe(true);
        }
      }),
    );
  });

  l2.property("JSON Pointer paths escape ~ and / and name the property back", () => {
    fc.assert(
      fc.property(nastyString, nastyJson, (name, value) => {
        fc.pre(typeof value !== "boolean");
        const schema = { type: "object", properties: { [name]: { type: "boolean" } }, required: [name] };
        const r = validate(schema, { [name]: value });
        expect(r.errors).toHaveLength(1);
        const path = r.errors[0].path;
        expect(path.startsWith("/")).toBe(true);
        expect(path.slice(1).split("/")).toHaveLength(1);
        expect(path.slice(1).replace(/~1/g, "/").replace(/~0/g, "~")).toBe(name);
        const missing = validate(schema, {});
        expect(missing.errors.map((e) => e.path)).toEqual([path]);
      }),
    );
  });

  l2.property("the same schema and data always give the same result (order included)", () => {
    fc.assert(
      fc.property(schemaAndData, ({ schema, data }) => {
        expect(validate(schema as Schema, data), "rule: deterministic, whatever the objects' identity").toEqual(validate(structuredClone(schema) as Schema, structuredClone(data)));
      }),
    );
  });
});

describe("5. Coerce, narrowly and only when asked", () => {
  l2.property("a numeric string is coerced exactly when it round-trips, and the coercion is reported", () => {
    const numeric = fc.oneof(
      fc.double({ noNaN: true }).map(String),
      fc.integer().map(String),
      fc.stringMatching(/^[-+ ]?0*\d{0,4}(\.\d{0,3})?(e[-+]?\d)?\s?$/),
    );
    fc.assert(
      fc.property(numeric, fc.constantFrom("number", "integer"), (s, type) => {
        const r = validate({ type: "object", properties: { v: { type } } }, { v: s }, { coerce: true });
        const n = Number(s);
        const should = Number.isFinite(n) && String(n) === s && (type === "number" || Number.isInteger(n));
        expect(r.valid).toBe(should);
        expect(r.coercions).toEqual(should ? [{ path: "/v", from: s, to: n }] : []);
        expect((r.value as Obj).v).toBe(should ? n : s);
      }),
    );
  });

  l2.property("strings are never coerced to booleans, null or anything else", () => {
    fc.assert(
      fc.property(fc.oneof(nastyString, fc.constantFrom("true", "false", "True", "1", "0", "null", "yes")), fc.constantFrom("boolean", "null", "object", "array"), (s, type) => {
        const r = validate({ type }, s, { coerce: true });
        expect(r.valid).toBe(false);
        expect(r.coercions).toEqual([]);
        expect(r.value).toBe(s);
        expect(r.errors.map((e) => e.keyword)).toEqual(["type"]);
      }),
    );
  });

  l3.property("with coercion on, the instance is never mutated and the copy equals it when nothing was coerced", () => {
    fc.assert(
      fc.property(schemaAndData, ({ schema, data }) => {
        const before = structuredClone(data);
        const r = validate(schema as JsonSchema as Schema, data, { coerce: true });
        expect(data).toEqual(before);
        if (r.coercions.length === 0) expect(r.value).toEqual(data);
        for (const c of r.coercions) expect(typeof c.to).toBe("number");
      }),
    );
  });
});

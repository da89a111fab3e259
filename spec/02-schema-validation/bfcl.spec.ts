// Real tool schemas (BFCL v4), converted to JSON Schema: the ground truths validate, and each
// single mutation is reported at the mutated path with the right keyword.
import { describe, expect } from "vitest";
import { validate, type Schema, type ValidationError, type ValidationResult } from "@impl/02-schema-validation";
import { l2 } from "../support/graded.ts";
import { callEachSettled } from "../support/realm.ts";
import { KNOWN_BFCL_DEFECTS, loadBfclCalls, toJsonSchema, type BfclCall } from "./bfcl.ts";

type Obj = Record<string, unknown>;

const calls = loadBfclCalls();
const sound = calls.filter((c) => !Object.hasOwn(KNOWN_BFCL_DEFECTS, c.id));

/** What a check of one call validates, and how it reads the results (in the order of `inputs`). */
interface Check {
  inputs: Array<[Schema, unknown]>;
  judge(results: ValidationResult[]): string | undefined;
}

/**
 * Checks every call: each check's validations are made, in order, in one callEach (realm.ts) for
 * the whole list; collects the ids (and why) of the calls a check rejects, or whose validation threw.
 */
function failuresOf(list: BfclCall[], plan: (c: BfclCall) => Check | undefined): string[] {
  const planned = list.flatMap((c) => {
    const check = plan(c);
    return check ? [{ c, check }] : [];
  });
  const settled = callEachSettled(validate, planned.flatMap(({ check }) => check.inputs));
  const failures: string[] = [];
  let next = 0;
  for (const { c, check } of planned) {
    const mine = settled.slice(next, next + check.inputs.length);
    next += check.inputs.length;
    const thrown = mine.find((r) => !r.ok);
    const problem = thrown && !thrown.ok ? `threw ${(thrown.error as Error).message}` : check.judge(mine.map((r) => (r as { value: ValidationResult }).value));
    if (problem) failures.push(`${c.id} (${c.tool}): ${problem}`);
  }
  return failures;
}

const show = (errors: ValidationError[]) => JSON.stringify(errors.map((e) => [e.path, e.keyword]));

/** Top-level properties of the converted schema that the ground truth fills in. */
function presentProperties(schema: Obj, args: Obj): Array<[string, Obj]> {
  const properties = (schema.properties ?? {}) as Record<string, Obj>;
  return Object.entries(properties).filter(([name]) => Object.hasOwn(args, name));
}

/** A value of a type the schema does not allow, and that no coercion could rescue. */
function wrongTypeValue(type: string): unknown {
  return type === "string" ? 12345 : type === "object" || type === "array" ? "not-a-container" : "not a number";
}

describe("4. Report every error, with its path", () => {
  describe("real tool schemas from BFCL", () => {
    l2(`ground-truth arguments of ${sound.length} real calls validate against their converted schemas`, () => {
      expect(sound.length).toBeGreaterThan(1500);
      const failures = failuresOf(sound, (c) => ({
        inputs: [[toJsonSchema(c.parameters) as Schema, c.arguments]],
        judge: ([r]) => (r.valid && r.errors.length === 0 ? undefined : `errors ${show(r.errors)}`),
      }));
      expect(failures, failures[0]).toEqual([]);
    });

    l2("the ground truths that contradict BFCL's own schema are rejected at the right path", () => {
      const defects = calls.filter((c) => Object.hasOwn(KNOWN_BFCL_DEFECTS, c.id));
      expect(defects.length).toBe(Object.keys(KNOWN_BFCL_DEFECTS).length);
      const failures = failuresOf(defects, (c) => ({
        inputs: [[toJsonSchema(c.parameters) as Schema, c.arguments]],
        judge: ([r]) => {
          const ok = !r.valid && r.errors.some((e) => e.path === KNOWN_BFCL_DEFECTS[c.id].path && e.keyword === "type");
          return ok ? undefined : `expected a type error at ${KNOWN_BFCL_DEFECTS[c.id].path}, got ${show(r.errors)}`;
        },
      }));
      expect(failures, failures[0]).toEqual([]);
    });

    l2("dropping a required argument: one `required` error at that argument's path", () => {
      let mutated = 0;
      const failures = failuresOf(sound, (c) => {
        const schema = toJsonSchema(c.parameters);
        const name = ((schema.required ?? []) as string[]).find((n) => Object.hasOwn(c.arguments, n));
        if (name === undefined) return undefined;
        mutated++;
        const args = { ...c.arguments };
        delete args[name];
        return {
          inputs: [[schema as Schema, args]],
          judge: ([r]) => {
            const ok = !r.valid && r.errors.length === 1 && r.errors[0].keyword === "required" && r.errors[0].path === `/${name}`;
            return ok ? undefined : `dropped ${name}, got ${show(r.errors)}`;
          },
        };
      });
      expect(mutated).toBeGreaterThan(1000);
      expect(failures, failures[0]).toEqual([]);
    });

    l2("an argument of the wrong type: a `type` error at that argument's path, and errors nowhere else", () => {
      let mutated = 0;
      const failures = failuresOf(sound, (c) => {
        const schema = toJsonSchema(c.parameters);
        const target = presentProperties(schema, c.arguments).find(([, s]) => typeof s.type === "string");
        if (!target) return undefined;
        mutated++;
        const [name, sub] = target;
        return {
          inputs: [[schema as Schema, { ...c.arguments, [name]: wrongTypeValue(sub.type as string) }]],
          judge: ([r]) => {
            const ok = !r.valid && r.errors.some((e) => e.keyword === "type" && e.path === `/${name}`) && r.errors.every((e) => e.path === `/${name}`);
            return ok ? undefined : `${name} made a non-${sub.type}, got ${show(r.errors)}`;
          },
        };
      });
      expect(mutated).toBeGreaterThan(1000);
      expect(failures, failures[0]).toEqual([]);
    });

    l2("a value outside an enum: exactly one `enum` error at that argument's path", () => {
      let mutated = 0;
      const failures = failuresOf(sound, (c) => {
        const schema = toJsonSchema(c.parameters);
        const target = presentProperties(schema, c.arguments).find(([, s]) => Array.isArray(s.enum) && s.type === "string");
        if (!target) return undefined;
        mutated++;
        const [name] = target;
        return {
          inputs: [[schema as Schema, { ...c.arguments, [name]: "__not_in_the_enum__" }]],
          judge: ([r]) => {
            const ok = !r.valid && r.errors.length === 1 && r.errors[0].keyword === "enum" && r.errors[0].path === `/${name}`;
            return ok ? undefined : `${name} set outside its enum, got ${show(r.errors)}`;
          },
        };
      });
      expect(mutated).toBeGreaterThan(50);
      expect(failures, failures[0]).toEqual([]);
    });

    l2("an extra argument under additionalProperties: false: one `additionalProperties` error at its path", () => {
      // A few ground truths carry arguments their schema does not list: closing those schemas
      // would make the ground truth itself invalid, so they are left out of this mutation.
      const listed = sound.filter((c) => Object.keys(c.arguments).every((k) => Object.hasOwn((c.parameters.properties ?? {}) as Obj, k)));
      expect(listed.length).toBeGreaterThan(1500);
      const failures = failuresOf(listed, (c) => {
        const schema = toJsonSchema(c.parameters, { closed: true }) as Schema;
        return {
          inputs: [[schema, { ...c.arguments, unexpected_extra: 1 }], [schema, c.arguments]],
          judge: ([r, closed]) => {
            const ok =
              !r.valid && r.errors.length === 1 && r.errors[0].keyword === "additionalProperties" && r.errors[0].path === "/unexpected_extra";
            return ok && closed.valid ? undefined : `extra key: got ${show(r.errors)}; ground truth valid when closed: ${closed.valid}`;
          },
        };
      });
      expect(failures, failures[0]).toEqual([]);
    });
  });
});

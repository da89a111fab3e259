// Arguments arrive as JSON text written by a model: decode them, then check them against the
// tool's schema before anything runs. Only a small schema subset is checked here (kata 2 is the
// full validator); every other keyword is an annotation as far as the loop is concerned.
import { canonicalJson } from "./canonical.ts";
import type { JsonSchema } from "./types.ts";

export interface ArgumentProblem {
  /** JSON Pointer to the offending value ("" is the arguments object itself). */
  path: string;
  message: string;
}

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/** "" (or only whitespace) and "null" mean "no arguments"; anything else must be a JSON object. */
export function parseArguments(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "arguments are not valid JSON" };
  }
  if (value === null) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: "arguments must be a JSON object" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  // Every integer is also a number; the reverse is what "integer" forbids.
  return actual === type || (type === "number" && actual === "integer");
}

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** Checks `value` against the subset: type, enum, properties, required, additionalProperties: false, items. */
export function checkArguments(schema: JsonSchema, value: unknown, path = ""): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  if (typeof schema.type === "string" && !hasType(value, schema.type)) {
    // Checking the children of a value of the wrong type would only add noise.
    return [{ path, message: `expected ${schema.type}, got ${typeOf(value)}` }];
  }
  if (Array.isArray(schema.enum)) {
    const wanted = canonicalJson(value);
    if (!schema.enum.some((member) => canonicalJson(member) === wanted)) {
      problems.push({ path, message: `must be one of ${JSON.stringify(schema.enum)}` });
    }
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(record, name)) problems.push({ path: pointer(path, name), message: "is required" });
    }
    const properties = schema.properties ?? {};
    for (const key of Object.keys(record)) {
      // Object.hasOwn, not `in`: "constructor" or "__proto__" must not find Object.prototype's.
      if (Object.hasOwn(properties, key)) {
        problems.push(...checkArguments(properties[key], record[key], pointer(path, key)));
      } else if (schema.additionalProperties === false) {
        problems.push({ path: pointer(path, key), message: "is not allowed" });
      }
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => problems.push(...checkArguments(schema.items as JsonSchema, item, pointer(path, i))));
  }
  return problems;
}

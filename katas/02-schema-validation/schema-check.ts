// Checking the whole schema before any instance is looked at (README task 3, "Schema errors").
import type { Schema } from "./types.ts";

export const TYPE_NAMES = ["string", "number", "integer", "boolean", "object", "array", "null"] as const;

/**
 * TODO: walk the schema and throw a SchemaError for the first problem: an unsupported keyword or
 * format, a keyword value of the wrong shape, a $ref that is not "#" or "#/$defs/<name>" or
 * names nothing, a refused pattern, nesting deeper than MAX_DEPTH, a $ref loop that never moves
 * into the instance (ref_cycle: found here, on the schema, not while validating).
 */
export function checkSchema(schema: Schema): void {
  throw new Error("not implemented");
}

/**
 * TODO: the schema a $ref names ("#" or "#/$defs/<name>": percent-decode, then ~1 and ~0),
 * with its schema path.
 */
export function resolveRef(root: Schema, ref: string, at: string): { schema: Schema; schemaPath: string } {
  throw new Error("not implemented");
}

/** TODO: true for a non-null, non-array object. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  throw new Error("not implemented");
}

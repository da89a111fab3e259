// Small helpers shared by kata 2's specs.
import { validate, type Schema } from "@impl/02-schema-validation";

/** `value` inside `count` nested arrays. */
export function arraysAround(value: unknown, count: number): unknown {
  for (let i = 0; i < count; i++) value = [value];
  return value;
}

/** A chain of `count` definitions, each only a `$ref` to the next, ending in `last`. */
export function refChain(count: number, last: Schema): Record<string, Schema> {
  const defs: Record<string, Schema> = {};
  for (let i = 0; i < count; i++) defs[`p${i}`] = { $ref: i + 1 < count ? `#/$defs/p${i + 1}` : "#/$defs/last" };
  defs.last = last;
  return defs;
}

/** The errors of `value` against `schema`, each as [path, keyword, schemaPath]. */
export const verdict = (schema: Schema, value: unknown) => validate(schema, value).errors.map((e) => [e.path, e.keyword, e.schemaPath]);

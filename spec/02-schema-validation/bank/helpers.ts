// Small helpers shared by kata 2's bank specs (the visible specs have their own in ../helpers.ts).
import { SchemaError, validate, type Schema } from "@impl/02-schema-validation";

/** Whether `data` is valid against `schema`. */
export const valid = (schema: Schema, data: unknown) => validate(schema, data).valid;

/** The errors of `data` against `schema`, each as [path, keyword]. */
export const pairs = (schema: Schema, data: unknown) => validate(schema, data).errors.map((e) => [e.path, e.keyword]);

/** The SchemaError `schema` throws, as "code schemaPath"; "no error" when it throws none. */
export function schemaError(schema: unknown, data: unknown = {}): string {
  try {
    validate(schema as Schema, data);
  } catch (e) {
    return e instanceof SchemaError ? `${e.code} ${e.schemaPath}` : `not a SchemaError: ${(e as Error).message}`;
  }
  return "no error";
}

/** A property name as a JSON Pointer segment (RFC 6901). */
export const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

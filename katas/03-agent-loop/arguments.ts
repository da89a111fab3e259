// Decode the model's arguments and check them against the tool's schema (a small subset).
import type { JsonSchema } from "./types.ts";

export interface ArgumentProblem {
  /** JSON Pointer to the offending value ("" is the arguments object itself). */
  path: string;
  message: string;
}

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

/**
 * TODO: decode the arguments text of a call.
 * "" (or only whitespace) and "null" mean {}; a JSON object is returned as `value`;
 * invalid JSON, or JSON that is not an object (array, number, string, boolean), is { ok: false }.
 * The message is your own words: never forward JSON.parse's, which quotes the model's raw text.
 */
export function parseArguments(text: string): ParsedArguments {
  throw new Error("not implemented");
}

/**
 * TODO: check `value` against `schema` and return every problem (empty array = valid).
 * Keywords: type (object, string, number, integer, boolean, array, null), enum, properties,
 * required, additionalProperties: false, items. Other keywords are ignored. `path` is the JSON
 * Pointer of the value being checked (start with ""). Own keys only: "__proto__" and
 * "constructor" are ordinary keys. A wrong type reports one problem and nothing else for that value.
 */
export function checkArguments(schema: JsonSchema, value: unknown, path?: string): ArgumentProblem[] {
  throw new Error("not implemented");
}

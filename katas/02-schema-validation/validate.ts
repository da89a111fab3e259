// The validator (README tasks 3, 4, 5 and 7).
import type { Schema, ValidateOptions, ValidationResult } from "./types.ts";

/**
 * TODO: check the schema (throw SchemaError), refuse instances nested deeper than MAX_DEPTH with
 * one `depth` error (and validations that would apply schemas more than 5 * MAX_DEPTH levels
 * deep, counting every branch of anyOf/oneOf), then collect every error in the README's order.
 * With `coerce`, turn round-tripping numeric strings into numbers where the schema asks for a
 * number, report each coercion, return a copy with them applied, and the errors of that copy.
 */
export function validate(schema: Schema, instance: unknown, options?: ValidateOptions): ValidationResult {
  throw new Error("not implemented");
}

/** TODO: float-safe multipleOf: value / divisor is finite and within 1e-9 of an integer (strictly). */
export function isMultipleOf(value: number, divisor: number): boolean {
  throw new Error("not implemented");
}

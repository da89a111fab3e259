// `pattern` as a RegExp (flag "u"), refused when it could backtrack catastrophically
// (README task 7, "Patterns").

/**
 * TODO: compile `source` with the "u" flag. Throw SchemaError("unsafe_pattern") when
 * unsafeReason finds a problem, SchemaError("invalid_keyword") when RegExp rejects it.
 */
export function compilePattern(source: string, schemaPath: string): RegExp {
  throw new Error("not implemented");
}

/**
 * TODO: why the pattern is refused (README rule: too long, back-reference, or a group repeated
 * without bound that contains a quantifier or a "|"), or undefined when it is safe.
 */
export function unsafeReason(source: string): string | undefined {
  throw new Error("not implemented");
}

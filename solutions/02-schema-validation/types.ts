// The kata's public types, its limits and its one error class. Everything a caller sees.

// ---------------------------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------------------------

/** Why a call's `arguments` could not be turned into an object. */
export type ArgumentsErrorCode =
  | "invalid_json" // a string that JSON.parse rejects (also after the second decode)
  | "not_an_object" // decoded fine, but to an array, number, boolean, null (after a decode) or a
  //                  string still left after two decodes
  | "ambiguous_arguments"; // both `arguments` and `parameters` are present

export interface ArgumentsError {
  code: ArgumentsErrorCode;
  /** Your own wording: never the JSON.parse error's text, which quotes a piece of the raw input. */
  message: string;
  /** The `arguments` (or `parameters`, `input`) value exactly as the message carried it. */
  raw: unknown;
}

export interface ToolCall {
  /** The call's own id when it has a non-empty string one, else a generated `call_<i>`. */
  id: string;
  name: string;
  /** Always a plain object: `{}` when there were none, and `{}` when `argumentsError` is set. */
  arguments: Record<string, unknown>;
  argumentsError?: ArgumentsError;
}

/** Problems with the message itself, not with one call's arguments. */
export type ExtractErrorCode =
  | "invalid_json" // a <tool_call> tag's content is not JSON and holds no JSON value either
  | "unclosed_tag" // a <tool_call> tag without its </tool_call>
  | "missing_name"; // an explicit call (tool_calls entry, tool-call entry, tool_use block, tag)
  //                   without a name, a non-object tool_calls entry, or a tag holding a non-object
  //                   (an array included)

export interface ExtractError {
  code: ExtractErrorCode;
  message: string;
}

export interface ExtractResult {
  calls: ToolCall[];
  errors: ExtractError[];
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/** A JSON Schema in the supported subset: an object or a boolean schema. */
export type Schema = boolean | { [keyword: string]: unknown };

export interface ValidateOptions {
  /** Turn numeric strings into numbers where the schema asks for a number (default false). */
  coerce?: boolean;
}

export interface ValidationError {
  /** RFC 6901 JSON Pointer to the instance location ("" is the whole instance). For `required`
   * it points at the missing property (its parent exists, it does not). */
  path: string;
  /** The failing keyword: a schema keyword, "false" for a false schema, or "depth" (the instance
   * is nested too deep, or validating it would apply schemas more than 500 levels deep). */
  keyword: string;
  /** Readable, says what was expected and what was got (see the README for what it contains). */
  message: string;
  /** JSON Pointer into the schema, to the failing keyword ("" for the depth error). */
  schemaPath: string;
}

export interface Coercion {
  path: string;
  from: string;
  to: number;
}

export interface ValidationResult {
  valid: boolean;
  errors: ValidationError[];
  /** With `coerce`, a copy of the instance with the coercions applied (the instance itself after a
   * `depth` error); otherwise the instance. */
  value: unknown;
  coercions: Coercion[];
}

/** Why a schema was refused. */
export type SchemaErrorCode =
  | "unsupported_keyword" // a keyword outside the subset (or an unknown `format`)
  | "invalid_keyword" // a supported keyword with a value of the wrong shape
  | "unsupported_ref" // a $ref that is not "#" or "#/$defs/<name>"
  | "unresolved_ref" // "#/$defs/<name>" where there is no such definition
  | "ref_cycle" // $refs that lead back to themselves without moving into the instance (found
  //               on the schema, whatever the instance)
  | "unsafe_pattern" // a pattern refused by the backtracking rule (see the README)
  | "too_deep"; // an object subschema more than MAX_DEPTH levels below the root

/** Thrown by `validate` when the schema itself is unusable: a programmer's error, not the model's.
 * Its `name` is "SchemaError". */
export class SchemaError extends Error {
  readonly code: SchemaErrorCode;
  /** JSON Pointer into the schema, to the offending keyword. */
  readonly schemaPath: string;
  constructor(code: SchemaErrorCode, schemaPath: string, message: string) {
    super(message);
    this.name = "SchemaError";
    this.code = code;
    this.schemaPath = schemaPath;
  }
}

/** Deepest nesting accepted, both for instances (containers inside containers) and schemas.
 * Validation also applies schemas at most 5 * MAX_DEPTH levels inside one another (README task 7). */
export const MAX_DEPTH = 100;
/** Longest `pattern` source accepted, in UTF-16 code units. */
export const MAX_PATTERN_LENGTH = 1000;
/** At most this many errors are listed by `formatFeedback`; the rest are counted. */
export const MAX_FEEDBACK_ERRORS = 10;

// Kata 2: JSON protocol and schema validation. The public API.
export { extractToolCalls } from "./extract.ts";
export { validate } from "./validate.ts";
export { formatFeedback } from "./feedback.ts";
export {
  SchemaError,
  MAX_DEPTH,
  MAX_PATTERN_LENGTH,
  MAX_FEEDBACK_ERRORS,
  type ArgumentsError,
  type ArgumentsErrorCode,
  type Coercion,
  type ExtractError,
  type ExtractErrorCode,
  type ExtractResult,
  type Schema,
  type SchemaErrorCode,
  type ToolCall,
  type ValidateOptions,
  type ValidationError,
  type ValidationResult,
} from "./types.ts";

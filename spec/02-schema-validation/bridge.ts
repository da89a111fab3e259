// Kata 2 as the specs see it in a graded run: the same public API as the stub, each function a
// call into the kata's sandbox process (spec/support/sandbox/). SchemaError is the specs' own copy
// of the contract's class: the kata's SchemaError arrives as an instance of it.
import type * as Kata from "../../katas/02-schema-validation/index.ts";
import type { SchemaErrorCode } from "../../katas/02-schema-validation/index.ts";
import { loadKata } from "../support/sandbox/bridge.ts";

export type {
  ArgumentsError, ArgumentsErrorCode, Coercion, ExtractError, ExtractErrorCode, ExtractResult, Schema,
  SchemaErrorCode, ToolCall, ValidateOptions, ValidationError, ValidationResult,
} from "../../katas/02-schema-validation/index.ts";

/** Thrown by `validate` when the schema itself is unusable. Its `name` is "SchemaError". */
export class SchemaError extends Error {
  readonly code: SchemaErrorCode;
  readonly schemaPath: string;
  constructor(code: SchemaErrorCode, schemaPath: string, message: string) {
    super(message);
    this.name = "SchemaError";
    this.code = code;
    this.schemaPath = schemaPath;
  }
}

const kata = await loadKata("02-schema-validation", { classes: { SchemaError }, methods: [] });

export const extractToolCalls = kata.export<typeof Kata.extractToolCalls>("extractToolCalls");
export const validate = kata.export<typeof Kata.validate>("validate");
export const formatFeedback = kata.export<typeof Kata.formatFeedback>("formatFeedback");
export const MAX_DEPTH = kata.export<typeof Kata.MAX_DEPTH>("MAX_DEPTH");
export const MAX_PATTERN_LENGTH = kata.export<typeof Kata.MAX_PATTERN_LENGTH>("MAX_PATTERN_LENGTH");
export const MAX_FEEDBACK_ERRORS = kata.export<typeof Kata.MAX_FEEDBACK_ERRORS>("MAX_FEEDBACK_ERRORS");

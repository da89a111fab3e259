// Turning validation errors into a short tool message for the model (README task 6).
import type { ValidationError } from "./types.ts";

/** TODO: a value as it appears in messages: JSON.stringify, cut to 60 characters ending "...". */
export function describeValue(value: unknown): string {
  throw new Error("not implemented");
}

/**
 * TODO: one introduction line (naming the tool when given), then one line per error,
 * "- argument `<name>`: <message>", at most MAX_FEEDBACK_ERRORS lines, then "... and N more".
 */
export function formatFeedback(errors: readonly ValidationError[], toolName?: string): string {
  throw new Error("not implemented");
}

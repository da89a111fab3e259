// Turns validation errors into the short tool message a model can act on.
import { pointerSegments } from "./pointer.ts";
import { MAX_FEEDBACK_ERRORS, type ValidationError } from "./types.ts";

/** Values longer than this, once rendered as JSON, are cut and end with "...". */
const MAX_VALUE_CHARS = 60;

/** A value as it appears in a message: JSON, cut short (60 UTF-16 code units, as `slice`
 * counts them). A value JSON cannot hold (undefined, NaN, an infinity) is shown by `String`. */
export function describeValue(value: unknown): string {
  const json = value === undefined || (typeof value === "number" && !Number.isFinite(value)) ? String(value) : JSON.stringify(value);
  return json.length > MAX_VALUE_CHARS ? `${json.slice(0, MAX_VALUE_CHARS - 3)}...` : json;
}

/** "/location/city" -> "location.city"; "" -> the arguments as a whole. */
function argumentName(path: string): string {
  const segments = pointerSegments(path);
  return segments.length === 0 ? "(all arguments)" : segments.join(".");
}

/**
 * One line of introduction, then one line per error:
 *   argument `date`: expected string in format date, got 42
 * At most MAX_FEEDBACK_ERRORS lines; the rest are counted in a last line.
 */
export function formatFeedback(errors: readonly ValidationError[], toolName?: string): string {
  if (errors.length === 0) return toolName ? `The arguments for \`${toolName}\` are valid.` : "The arguments are valid.";
  const head = toolName
    ? `Invalid arguments for tool \`${toolName}\`; fix them and call it again:`
    : "Invalid arguments; fix them and call the tool again:";
  const lines = errors.slice(0, MAX_FEEDBACK_ERRORS).map((e) => `- argument \`${argumentName(e.path)}\`: ${e.message}`);
  const rest = errors.length - MAX_FEEDBACK_ERRORS;
  if (rest > 0) lines.push(`- ... and ${rest} more error${rest === 1 ? "" : "s"}`);
  return [head, ...lines].join("\n");
}

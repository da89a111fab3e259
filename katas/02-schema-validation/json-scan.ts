// Finding JSON objects and arrays inside free text (prose, code fences, tag contents).

export interface JsonSpan {
  /** Index of the opening bracket. */
  start: number;
  /** Index just past the closing bracket. */
  end: number;
  /** What JSON.parse made of text.slice(start, end). */
  value: unknown;
}

/**
 * TODO: every JSON object or array in `text`, left to right, outermost first (README, task 1,
 * "Finding JSON in text"). A regex like /\{[^{}]*\}/ loses nested objects: walk the text,
 * tracking JSON strings (with backslash escapes) and the open brackets.
 */
export function findJsonValues(text: string): JsonSpan[] {
  throw new Error("not implemented");
}

/**
 * TODO: index of the bracket that closes the one at `open` (string-aware), or -1 when the text
 * ends first or a closer of the wrong kind comes first.
 */
export function matchingBracket(text: string, open: number): number {
  throw new Error("not implemented");
}

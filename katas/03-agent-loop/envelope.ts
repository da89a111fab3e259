// The uniform envelope every tool result takes back to the model, and truncation.

/**
 * TODO: if `text` has more than `max` characters (code points, not UTF-16 units), keep the first
 * `max` and append the marker "…[truncated N chars]" (N = characters dropped); else return it as is.
 */
export function truncateText(text: string, max: number): string {
  throw new Error("not implemented");
}

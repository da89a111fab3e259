// RFC 6901 JSON Pointers: how errors say where they are, and how "#/$defs/name" is read.

/** `~` and `/` are the two characters a pointer segment must escape (`~` first). */
export function escapeSegment(segment: string): string {
  // Most segments (property names, indices) have neither: skip the two replaces for them.
  if (!segment.includes("~") && !segment.includes("/")) return segment;
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The pointer one level below `pointer`. */
export function childPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapeSegment(String(segment))}`;
}

/** The segments of a pointer, unescaped ("" has none). */
export function pointerSegments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeSegment);
}

// RFC 6901 JSON Pointers: how errors say where they are, and how "#/$defs/name" is read.

/** TODO: escape one segment: "~" becomes "~0" and "/" becomes "~1" (in that order). */
export function escapeSegment(segment: string): string {
  throw new Error("not implemented");
}

/** TODO: undo escapeSegment: "~1" becomes "/", then "~0" becomes "~". */
export function unescapeSegment(segment: string): string {
  throw new Error("not implemented");
}

/** TODO: the pointer one level below `pointer` ("" + "a" -> "/a", "/a" + 0 -> "/a/0"). */
export function childPointer(pointer: string, segment: string | number): string {
  throw new Error("not implemented");
}

/** TODO: the unescaped segments of a pointer ("" has none). */
export function pointerSegments(pointer: string): string[] {
  throw new Error("not implemented");
}

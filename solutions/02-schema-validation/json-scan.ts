// Finds the JSON objects and arrays embedded in free text (prose, code fences, tags).
//
// A regex such as /\{[^{}]*\}/ cannot do this: JSON nests, and its strings may hold braces.
// So the scanner walks the text once per "region": from the first `{` or `[` it tracks JSON
// strings (with backslash escapes) and a stack of open brackets; every bracket pair it closes
// is a candidate. Outside any bracket the text is prose, and quotes there mean nothing.

export interface JsonSpan {
  /** Index of the opening bracket. */
  start: number;
  /** Index just past the closing bracket. */
  end: number;
  /** What JSON.parse made of text.slice(start, end). */
  value: unknown;
}

const CLOSER: Record<string, string> = { "{": "}", "[": "]" };

/**
 * Every JSON object or array in `text`, left to right, outermost first: a candidate that parses
 * is taken whole (the candidates inside it are not tried); one that does not parse is skipped and
 * the candidates inside it are tried instead.
 */
export function findJsonValues(text: string): JsonSpan[] {
  const found: JsonSpan[] = [];
  let i = 0;
  while (i < text.length) {
    const open = nextOpener(text, i);
    if (open < 0) break;
    const { pairs, regionEnd } = matchRegion(text, open);
    // `pairs` is in order of the opening bracket: outermost and leftmost first.
    let takenUntil = -1;
    for (const [start, close] of pairs) {
      if (start < takenUntil) continue; // inside a value already taken
      const value = tryParse(text.slice(start, close + 1));
      if (value !== FAILED) {
        found.push({ start, end: close + 1, value });
        takenUntil = close + 1;
      }
    }
    i = regionEnd;
  }
  return found;
}

function nextOpener(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text[i] === "{" || text[i] === "[") return i;
  return -1;
}

/**
 * One pass from the opening bracket at `open` until its bracket depth returns to zero, a closer
 * does not match, or the text ends. Returns the bracket pairs closed on the way (sorted by their
 * opening index) and where prose resumes.
 */
function matchRegion(text: string, open: number): { pairs: Array<[number, number]>; regionEnd: number } {
  const pairs: Array<[number, number]> = [];
  const stack: number[] = [];
  let inString = false;
  let i = open;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++; // the escaped character can't end the string
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") stack.push(i);
    else if (c === "}" || c === "]") {
      const top = stack.pop()!;
      if (CLOSER[text[top]] !== c) {
        // `{ ]`: the brackets that are still open can never close properly; back to prose.
        i++;
        break;
      }
      pairs.push([top, i]);
      if (stack.length === 0) {
        i++;
        break;
      }
    }
  }
  pairs.sort((a, b) => a[0] - b[0]);
  // An unclosed region (the text ended inside it) ends at the text's end: its inner pairs
  // were all found in this pass.
  return { pairs, regionEnd: Math.max(i, open + 1) };
}

const FAILED = Symbol("failed");

function tryParse(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    return FAILED;
  }
}

/**
 * Index of the bracket that closes the one at `open` (string-aware, as above), or -1 when the
 * text ends first or a closer of the wrong kind comes first.
 */
export function matchingBracket(text: string, open: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") stack.push(CLOSER[c]);
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

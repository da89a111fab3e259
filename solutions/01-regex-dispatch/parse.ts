// Finding tool calls in a model's reply: one left-to-right scan, no regex over the input.
//
// The scan walks the text once. Most characters are prose and cost one step. A word made of
// ASCII letters, digits, `_` and `.` is read whole (so `abcf(x)` never yields a call named `f`);
// when it is a valid name and an opening parenthesis follows *immediately*, we try to read an
// argument list. Three outcomes:
//   - it reads: a call; the scan continues after its closing parenthesis, so the prose after a
//     call mid-sentence stays prose;
//   - the text ends first (or nesting is too deep): a parse_error, never a call that runs;
//   - something that is not an argument list turns up: the parenthesis was prose; the scan goes on
//     from the point where reading failed. Never going back further than that keeps it linear.
import {
  isCloseParen, isComma, isOpenParen, readKey, readValue, setOwn, skipWhitespace, WHITESPACE,
  type Read, type ReadFailure,
} from "./literals.ts";
import type { ParseError, ParsedCall, ParseResult, Span, Value } from "./types.ts";

const MARKER = "TOOL_CALL";

interface ArgumentList {
  args: Value[];
  kwargs: Record<string, Value>;
}

const isWordChar = (c: string | undefined): boolean =>
  c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_" || c === ".");

/** `a`, `math.factorial`, `a.b_2.c`: identifiers joined by single dots. */
function isDottedName(word: string): boolean {
  let segmentStart = true;
  for (const c of word) {
    if (c === ".") {
      if (segmentStart) return false; // empty segment: "..", ".a" or "a..b"
      segmentStart = true;
    } else {
      if (segmentStart && c >= "0" && c <= "9") return false;
      segmentStart = false;
    }
  }
  return !segmentStart; // also rejects "" and a trailing dot
}

function wordEnd(text: string, pos: number): number {
  while (pos < text.length && isWordChar(text[pos])) pos++;
  return pos;
}

/** Reads `(args)` whose opening parenthesis is at `paren`. Positional and keyword arguments. */
function readArgumentList(text: string, paren: number): Read<ArgumentList> {
  const args: Value[] = [];
  const kwargs: Record<string, Value> = {};
  let i = skipWhitespace(text, paren + 1);
  while (true) {
    if (i >= text.length) return { ok: false, kind: "truncated", at: i, message: "the text ended inside the argument list" };
    if (isCloseParen(text[i])) return { ok: true, value: { args, kwargs }, end: i + 1 };

    // `key=value` when a key is followed by "="; anything else is a positional value.
    const key = readKey(text, i);
    const eq = key.ok ? skipWhitespace(text, key.end) : -1;
    let valueEnd: number;
    if (key.ok && text[eq] === "=") {
      if (Object.hasOwn(kwargs, key.value)) {
        return { ok: false, kind: "malformed", at: i, message: "a keyword given twice" };
      }
      const value = readValue(text, eq + 1, 0);
      if (!value.ok) return value;
      setOwn(kwargs, key.value, value.value);
      valueEnd = value.end;
    } else {
      const value = readValue(text, i, 0);
      if (!value.ok) return value;
      args.push(value.value);
      valueEnd = value.end;
    }

    i = skipWhitespace(text, valueEnd);
    if (i >= text.length) return { ok: false, kind: "truncated", at: i, message: "the text ended inside the argument list" };
    if (isComma(text[i])) i = skipWhitespace(text, i + 1);
    else if (!isCloseParen(text[i])) return { ok: false, kind: "malformed", at: i, message: "expected ',' or ')'" };
  }
}

type Found = Read<ParsedCall>;

/** A call whose name spans [start, paren). */
function readCall(text: string, start: number, paren: number): Found {
  const list = readArgumentList(text, paren);
  if (!list.ok) return list;
  const name = text.slice(start, paren);
  return { ok: true, value: { name, ...list.value, syntax: "call", span: { start, end: list.end } }, end: list.end };
}

/** What reading a list gave: the calls it holds, and whether the brackets closed around them. */
interface CallList {
  calls: ParsedCall[];
  /** Where the list ends (after `]`), or, for a broken list, where its last complete call ends. */
  end: number;
  complete: boolean;
}

/**
 * `[a(x=1), b(y="s")]`: only calls and commas between the brackets, at least one call. A broken
 * list still returns the complete calls it read, so the caller need not read them twice.
 */
function readCallList(text: string, bracket: number): CallList {
  const calls: ParsedCall[] = [];
  let i = skipWhitespace(text, bracket + 1);
  let lastEnd = bracket + 1;
  // No closure for the broken case: this runs at every "[" of the text, and a function made per
  // call costs more than the rest of a miss (most of all under tsx, which names each one).
  while (true) {
    const end = wordEnd(text, i);
    if (!isOpenParen(text[end]) || !isDottedName(text.slice(i, end))) return { calls, end: lastEnd, complete: false };
    const call = readCall(text, i, end);
    if (!call.ok) return { calls, end: lastEnd, complete: false };
    calls.push(call.value);
    lastEnd = call.end;
    i = skipWhitespace(text, call.end);
    if (text[i] === "]") return { calls, end: i + 1, complete: true };
    if (!isComma(text[i])) return { calls, end: lastEnd, complete: false };
    i = skipWhitespace(text, i + 1);
    if (text[i] === "]") return { calls, end: i + 1, complete: true }; // a trailing comma
  }
}

/**
 * `TOOL_CALL: {"name": ..., "arguments": {...}}` with `:` or `：`. `afterWord` is the position
 * right after the word TOOL_CALL. Returns null when this is not a marker at all (prose).
 */
function readMarker(text: string, start: number, afterWord: number): Found | null {
  let i = afterWord;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] !== ":" && text[i] !== "：") return null;
  i++;
  while (text[i] === " " || text[i] === "\t") i++;
  if (text[i] !== "{") return null;

  const object = readValue(text, i, 0);
  if (!object.ok) return object;
  const fields = object.value as Record<string, Value>;
  const name = Object.hasOwn(fields, "name") ? fields.name : undefined;
  const args = Object.hasOwn(fields, "arguments") ? fields.arguments : undefined;
  const span = { start, end: object.end };
  if (typeof name !== "string" || name.trim() === "") {
    return { ok: false, kind: "malformed", at: object.end, message: "TOOL_CALL needs a non-empty string \"name\"" };
  }
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    return { ok: false, kind: "malformed", at: object.end, message: "TOOL_CALL \"arguments\" must be an object" };
  }
  return { ok: true, value: { name, args: [], kwargs: args ?? {}, syntax: "marker", span }, end: object.end };
}

export function parseToolCalls(text: string): ParseResult {
  const calls: ParsedCall[] = [];
  const errors: ParseError[] = [];
  /** What `prose` leaves out, in order: calls, whole lists, errors (fences are added later). */
  const regions: Span[] = [];

  const fail = (failure: ReadFailure, start: number, name: string | null): number => {
    const end = failure.kind === "truncated" ? text.length : failure.at;
    errors.push({ message: failure.message, span: { start, end }, name });
    regions.push({ start, end });
    return end;
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i];

    if (c === "[") {
      const list = readCallList(text, i);
      if (list.complete) {
        for (const call of list.calls) calls.push({ ...call, syntax: "list" });
        regions.push({ start: i, end: list.end });
      } else {
        // Not a list of calls: the brackets are prose, and the complete calls read so far are
        // plain calls. Scanning goes on after the last of them (what failed is read again).
        for (const call of list.calls) {
          calls.push(call);
          regions.push(call.span);
        }
      }
      i = list.end;
      continue;
    }

    if (!isWordChar(c)) {
      i++;
      continue;
    }

    const end = wordEnd(text, i);
    const word = text.slice(i, end);

    if (word === MARKER) {
      const marker = readMarker(text, i, end);
      if (marker?.ok) {
        calls.push(marker.value);
        regions.push(marker.value.span);
        i = marker.end;
        continue;
      }
      if (marker) {
        // A marker announces a call: whatever goes wrong after it is an error, not prose.
        i = Math.max(fail(marker, i, null), end);
        continue;
      }
    }

    if (isOpenParen(text[end]) && isDottedName(word)) {
      const call = readCall(text, i, end);
      if (call.ok) {
        calls.push(call.value);
        regions.push(call.value.span);
        i = call.end;
      } else if (call.kind === "malformed") {
        i = Math.max(call.at, end + 1); // prose after all: go on from where reading failed
      } else {
        i = fail(call, i, word);
      }
      continue;
    }

    i = end;
  }

  if (regions.length === 0) return { calls, errors, prose: text };
  return { calls, errors, prose: cut(text, absorbCallOnlyFences(text, regions)) };
}

/** The text without the given sorted, disjoint regions. */
function cut(text: string, regions: Span[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const region of regions) {
    parts.push(text.slice(from, region.start));
    from = region.end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/**
 * A fenced block (a line starting with ``` up to the next such line) that holds nothing but
 * spans cut from the prose (calls, lists, parse errors), at least one, and whitespace is removed
 * whole, fences included, instead of leaving an empty fence. Lines end at "\n", "\r\n" or a
 * lone "\r"; the line break after the closing fence line stays.
 */
function absorbCallOnlyFences(text: string, regions: Span[]): Span[] {
  const out: Span[] = [];
  let r = 0; // next region not yet copied to `out`
  let open = -1; // start of the open fence line, -1 when outside a fence
  let contentStart = 0;

  for (let lineStart = 0; lineStart < text.length; ) {
    let lineEnd = lineStart;
    while (lineEnd < text.length && text[lineEnd] !== "\n" && text[lineEnd] !== "\r") lineEnd++;
    const next = lineEnd + (text[lineEnd] === "\r" && text[lineEnd + 1] === "\n" ? 2 : 1);
    const first = skipSpaces(text, lineStart, lineEnd);
    if (text.startsWith("```", first)) {
      if (open === -1) {
        open = lineStart;
        contentStart = next;
      } else {
        // Copy the regions before the block, then decide about the block.
        while (r < regions.length && regions[r].end <= open) out.push(regions[r++]);
        let k = r;
        let onlyCalls = true;
        let gap = contentStart;
        while (k < regions.length && regions[k].start < lineEnd) {
          const region = regions[k];
          if (region.start < contentStart || region.end > lineStart || !isBlank(text, gap, region.start)) onlyCalls = false;
          gap = region.end;
          k++;
        }
        if (onlyCalls && k > r && isBlank(text, gap, lineStart)) {
          out.push({ start: open, end: lineEnd });
          r = k;
        }
        open = -1;
      }
    }
    lineStart = next;
  }
  while (r < regions.length) out.push(regions[r++]);
  return out;
}

function skipSpaces(text: string, from: number, to: number): number {
  while (from < to && (text[from] === " " || text[from] === "\t")) from++;
  return from;
}

/** Only the kata's whitespace (space, tab, line breaks, U+3000): NBSP and U+2028 are text. */
function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!WHITESPACE.has(text[i])) return false;
  return true;
}

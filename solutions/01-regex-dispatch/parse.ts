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
//
// The scanner (literals.ts) reads character codes and returns each value directly, with its
// position in `pos`: no object is made for a read that fails, and nothing for a character of prose.
import * as literals from "./literals.ts";
import type { ParseError, ParsedCall, ParseResult, Span, Value } from "./types.ts";

// The scanner's character codes and tests, by the short names the scan uses (why they are bound
// here rather than imported by name: docs/benchmarks.md, "Why the references are written this way").
const {
  CLOSE_BRACKET, COLON, CR, EQUALS, LF, OPEN_BRACE, OPEN_BRACKET, SPACE, TAB, WIDE_COLON,
  isCloseParen, isComma, isOpenParen, isWhitespace, isWordChar, Scanner, setOwn,
} = literals;

const MARKER = "TOOL_CALL";
const DOT = 0x2e;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `a`, `math.factorial`, `a.b_2.c`: identifiers joined by single dots (`text[start, end)` holds word characters only). */
function isDottedName(text: string, start: number, end: number): boolean {
  let segmentStart = true;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) {
      if (segmentStart) return false; // empty segment: "..", ".a" or "a..b"
      segmentStart = true;
    } else {
      if (segmentStart && isDigit(c)) return false;
      segmentStart = false;
    }
  }
  return !segmentStart; // also rejects "" and a trailing dot
}

function wordEnd(text: string, pos: number): number {
  while (pos < text.length && isWordChar(text.charCodeAt(pos))) pos++;
  return pos;
}

/** The scan of one reply, and what it found so far. */
class CallScanner extends Scanner {
  readonly calls: ParsedCall[] = [];
  readonly errors: ParseError[] = [];
  /** What `prose` leaves out, in order: calls, whole lists, errors (fences are added later). */
  readonly regions: Span[] = [];

  scan(): void {
    const text = this.text;
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);

      if (c === OPEN_BRACKET) {
        i = this.readCallList(i);
        continue;
      }

      if (!isWordChar(c)) {
        i++;
        continue;
      }

      const end = wordEnd(text, i);

      if (end - i === MARKER.length && text.startsWith(MARKER, i)) {
        const brace = this.markerObjectStart(end);
        if (brace !== -1) {
          const marker = this.readMarker(i, brace);
          // A marker announces a call: whatever goes wrong after it is an error, not prose.
          i = marker ? this.found(marker) : Math.max(this.reportError(i, null), end);
          continue;
        }
      }

      if (isOpenParen(text.charCodeAt(end)) && isDottedName(text, i, end)) {
        const call = this.readCall(i, end);
        if (call) i = this.found(call);
        else if (this.failKind === "malformed") i = Math.max(this.failAt, end + 1); // prose after all: go on from where reading failed
        else i = this.reportError(i, text.slice(i, end));
        continue;
      }

      i = end;
    }
  }

  /** Records a complete call; returns where the scan goes on. */
  private found(call: ParsedCall): number {
    this.calls.push(call);
    this.regions.push(call.span);
    return call.span.end;
  }

  /** Records the last failure as a parse error of a call (or marker) from `start`; returns where the scan goes on. */
  private reportError(start: number, name: string | null): number {
    const end = this.failKind === "truncated" ? this.text.length : this.failAt;
    const span = { start, end };
    this.errors.push({ message: this.failMessage, span, name });
    this.regions.push(span);
    return end;
  }

  /** A call whose name spans [start, paren). */
  private readCall(start: number, paren: number): ParsedCall | undefined {
    const args: Value[] = [];
    const kwargs: Record<string, Value> = {};
    this.pos = paren + 1;
    if (!this.readArgumentList(args, kwargs)) return undefined;
    return { name: this.text.slice(start, paren), args, kwargs, syntax: "call", span: { start, end: this.pos } };
  }

  /** Reads the arguments after `(` up to its `)` into `args` and `kwargs`. Positional and keyword arguments. */
  private readArgumentList(args: Value[], kwargs: Record<string, Value>): boolean {
    const text = this.text;
    this.skipWhitespace();
    while (true) {
      // The text ending here (after "(" or a comma) is reported by readValue below: truncated.
      if (isCloseParen(this.peek())) {
        this.pos++;
        return true;
      }

      // `key=value` when a key is followed by "="; anything else is a positional value. (When no
      // key starts here, keyEnd is `start`, at a character that is not whitespace: nothing moves.)
      const start = this.pos;
      const keyEnd = this.keyEnd();
      this.pos = keyEnd;
      this.skipWhitespace();
      if (keyEnd > start && this.peek() === EQUALS) {
        const key = text.slice(start, keyEnd);
        if (Object.hasOwn(kwargs, key)) return this.failed("malformed", start, "a keyword given twice");
        this.pos++;
        const value = this.readValue(0);
        if (value === undefined) return false;
        setOwn(kwargs, key, value);
      } else {
        this.pos = start;
        const value = this.readValue(0);
        if (value === undefined) return false;
        args.push(value);
      }

      this.skipWhitespace();
      if (this.atEnd()) return this.failed("truncated", this.text.length, "the text ended inside the argument list");
      if (isComma(this.peek())) {
        this.pos++;
        this.skipWhitespace();
      } else if (!isCloseParen(this.peek())) {
        return this.failed("malformed", this.pos, "expected ',' or ')'");
      }
    }
  }

  /**
   * `[a(x=1), b(y="s")]`: only calls and commas between the brackets, at least one call.
   * Returns where the scan goes on. The calls are recorded as plain calls as they are read; a
   * list that closes makes them list calls and cuts the whole list, brackets included, from the
   * prose. A broken list leaves them plain calls, and the scan goes on after the last of them
   * (what failed is read again), or right after the `[` when there is none.
   */
  private readCallList(bracket: number): number {
    const text = this.text;
    this.pos = bracket + 1;
    this.skipWhitespace();
    if (!isWordChar(text.charCodeAt(this.pos))) return bracket + 1; // most brackets of a text: no call follows
    const firstCall = this.calls.length;
    const firstRegion = this.regions.length;
    let lastEnd = bracket + 1;
    while (true) {
      const start = this.pos;
      const end = wordEnd(text, start);
      if (!isOpenParen(text.charCodeAt(end)) || !isDottedName(text, start, end)) return lastEnd;
      const call = this.readCall(start, end);
      if (!call) return lastEnd;
      lastEnd = this.found(call);
      this.pos = lastEnd;
      this.skipWhitespace();
      let c = this.peek();
      if (c !== CLOSE_BRACKET) {
        if (!isComma(c)) return lastEnd;
        this.pos++;
        this.skipWhitespace();
        c = this.peek(); // a trailing comma
      }
      if (c === CLOSE_BRACKET) {
        for (let k = firstCall; k < this.calls.length; k++) this.calls[k].syntax = "list";
        this.regions.length = firstRegion;
        this.regions.push({ start: bracket, end: this.pos + 1 });
        return this.pos + 1;
      }
    }
  }

  /**
   * After the word TOOL_CALL (at `afterWord`): optional spaces or tabs, `:` or `：`, optional
   * spaces or tabs, `{`. Returns where that `{` is, or -1 when this is not a marker (prose).
   */
  private markerObjectStart(afterWord: number): number {
    const text = this.text;
    let i = afterWord;
    while (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB) i++;
    const colon = text.charCodeAt(i);
    if (colon !== COLON && colon !== WIDE_COLON) return -1;
    i++;
    while (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB) i++;
    return text.charCodeAt(i) === OPEN_BRACE ? i : -1;
  }

  /** `TOOL_CALL: {"name": ..., "arguments": {...}}` from `start`, its object at `brace`. */
  private readMarker(start: number, brace: number): ParsedCall | undefined {
    this.pos = brace;
    const fields = this.readValue(0) as Record<string, Value> | undefined;
    if (fields === undefined) return undefined;
    const end = this.pos;
    const name = Object.hasOwn(fields, "name") ? fields.name : undefined;
    const args = Object.hasOwn(fields, "arguments") ? fields.arguments : undefined;
    if (typeof name !== "string" || name.trim() === "") {
      return this.fail("malformed", end, "TOOL_CALL needs a non-empty string \"name\"");
    }
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
      return this.fail("malformed", end, "TOOL_CALL \"arguments\" must be an object");
    }
    return { name, args: [], kwargs: args ?? {}, syntax: "marker", span: { start, end } };
  }
}

export function parseToolCalls(text: string): ParseResult {
  const scanner = new CallScanner(text);
  scanner.scan();
  const { calls, errors, regions } = scanner;
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
  if (!text.includes("```")) return regions; // no fence line at all: nothing to walk
  const out: Span[] = [];
  let r = 0; // next region not yet copied to `out`
  let open = -1; // start of the open fence line, -1 when outside a fence
  let contentStart = 0;

  for (let lineStart = 0; lineStart < text.length; ) {
    let lineEnd = lineStart;
    while (lineEnd < text.length && text.charCodeAt(lineEnd) !== LF && text.charCodeAt(lineEnd) !== CR) lineEnd++;
    const next = lineEnd + (text.charCodeAt(lineEnd) === CR && text.charCodeAt(lineEnd + 1) === LF ? 2 : 1);
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
  while (from < to && (text.charCodeAt(from) === SPACE || text.charCodeAt(from) === TAB)) from++;
  return from;
}

/** Only the kata's whitespace (space, tab, line breaks, U+3000): NBSP and U+2028 are text. */
function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhitespace(text.charCodeAt(i))) return false;
  return true;
}

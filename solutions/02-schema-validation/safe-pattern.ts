// `pattern` compiles to a JavaScript RegExp (flag "u"), which backtracks. A pattern such as
// (a+)+$ takes exponential time on "aaaa…!", and a model controls the string it is run on. So a
// pattern is refused before it ever runs when it has the shapes that backtrack catastrophically:
//   - a group repeated without bound (*, +, {n,}) that itself contains a quantifier or a "|",
//     e.g. (a+)+ (a*)* (a|aa)+ (\d+,?)* ;
//   - a back-reference (\1 … \9, \k<name>);
//   - a source longer than MAX_PATTERN_LENGTH.
import { MAX_PATTERN_LENGTH, SchemaError } from "./types.ts";

/** The pattern as a RegExp, or a SchemaError at `schemaPath` when it is unsafe or invalid. */
export function compilePattern(source: string, schemaPath: string): RegExp {
  const problem = unsafeReason(source);
  if (problem) throw new SchemaError("unsafe_pattern", schemaPath, `pattern ${JSON.stringify(source)} refused: ${problem}`);
  try {
    return new RegExp(source, "u");
  } catch (e) {
    throw new SchemaError("invalid_keyword", schemaPath, `pattern ${JSON.stringify(source)} is not a valid regular expression: ${(e as Error).message}`);
  }
}

interface Group {
  /** The group contains a quantifier or an alternation, directly or in a nested group. */
  risky: boolean;
}

/** Why the pattern is refused, or undefined when it is safe to run. */
export function unsafeReason(source: string): string | undefined {
  if (source.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  const groups: Group[] = [{ risky: false }];
  const top = () => groups[groups.length - 1];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (/[1-9]/.test(next) || (next === "k" && source[i + 2] === "<")) return "back-references are not allowed";
      i++; // the escaped character is a literal (or a class like \d): skip it
      continue;
    }
    if (c === "[") {
      i = endOfClass(source, i);
      continue;
    }
    if (c === "(") {
      groups.push({ risky: false });
      // (?: (?= (?! (?<= (?<! (?<name>: the "?" is part of the group's syntax, not a quantifier.
      if (source[i + 1] === "?") {
        if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") {
          const close = source.indexOf(">", i);
          i = close < 0 ? source.length : close;
        } else i += source[i + 2] === "<" ? 3 : 2;
      }
      continue;
    }
    if (c === "|") {
      top().risky = true;
      continue;
    }
    if (c === ")") {
      const closed = groups.length > 1 ? groups.pop()! : { risky: false };
      const q = quantifierAt(source, i + 1);
      if (q.unbounded && closed.risky) return "a repeated group contains a quantifier or an alternation (nested quantifiers)";
      if (closed.risky || q.length > 0) top().risky = true;
      i += q.length;
      continue;
    }
    const q = quantifierAt(source, i);
    if (q.length > 0) {
      top().risky = true;
      i += q.length - 1;
    }
  }
  return undefined;
}

/** The quantifier starting at `i` (with its lazy "?"), if any. */
function quantifierAt(source: string, i: number): { length: number; unbounded: boolean } {
  const c = source[i];
  let length = 0;
  let unbounded = false;
  if (c === "*" || c === "+") {
    length = 1;
    unbounded = true;
  } else if (c === "?") {
    length = 1;
  } else if (c === "{") {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
    if (m) {
      length = m[0].length;
      unbounded = m[2] !== undefined && m[3] === "";
    }
  }
  if (length > 0 && source[i + length] === "?") length++;
  return { length, unbounded };
}

/** Index of the "]" that closes the character class opened at `open`. */
function endOfClass(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]") return i;
  }
  return source.length;
}

// A calculator a model may call with untrusted text. It reads arithmetic and nothing else:
// no eval, no Function, no variables, no function calls. A small recursive-descent parser,
// one function per precedence level, lowest first:
//
//   expression := term (("+" | "-") term)*              left-associative
//   term       := unary (("*" | "/" | "%") unary)*       left-associative
//   unary      := "-" unary | power                      -2 ** 2 is -(2 ** 2), as in Python
//   power      := atom ("**" unary)?                     right-associative: 2 ** 3 ** 2 = 2 ** 9
//   atom       := number | "(" expression ")"
//   number     := digits ["." digits] | "." digits       (no exponent, no sign: that is unary)
import { BadArgumentsError, type ToolDefinition } from "./types.ts";

/** Parentheses and unary minus nest at most this deep: recursion stays bounded. */
export const MAX_CALC_DEPTH = 100;

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly source: string) {}

  // Spaces: every atom is reached through unary()'s peekOperator(), and every expression ends
  // with a peekOperator() that found no operator, so both have already skipped the spaces.

  parse(): number {
    const value = this.expression();
    if (this.pos < this.source.length) this.fail("unexpected character");
    return value;
  }

  private expression(): number {
    let value = this.term();
    for (let op = this.peekOperator(); op === "+" || op === "-"; op = this.peekOperator()) {
      this.pos += 1;
      const right = this.term();
      value = finite(op === "+" ? value + right : value - right);
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.peekOperator(); op === "*" || op === "/" || op === "%"; op = this.peekOperator()) {
      this.pos += 1;
      const right = this.unary();
      // A division or % by zero needs no test of its own: it gives ±Infinity or NaN, which
      // finite() refuses with a RangeError.
      value = finite(op === "*" ? value * right : op === "/" ? value / right : value % right);
    }
    return value;
  }

  private unary(): number {
    if (this.peekOperator() !== "-") return this.power();
    this.pos += 1;
    return -this.nested(() => this.unary());
  }

  private power(): number {
    const base = this.atom();
    if (this.peekOperator() !== "**") return base;
    this.pos += 2;
    return finite(base ** this.nested(() => this.unary()));
  }

  private atom(): number {
    const c = this.source[this.pos];
    if (c === "(") {
      this.pos += 1;
      const value = this.nested(() => this.expression());
      if (this.source[this.pos] !== ")") this.fail("missing ')'");
      this.pos += 1;
      return value;
    }
    return this.number();
  }

  private number(): number {
    const start = this.pos;
    while (isDigit(this.source[this.pos])) this.pos++;
    const intDigits = this.pos - start;
    let fracDigits = 0;
    if (this.source[this.pos] === ".") {
      this.pos++;
      while (isDigit(this.source[this.pos])) { this.pos++; fracDigits++; }
    }
    if (intDigits === 0 && fracDigits === 0) {
      this.pos = start;
      this.fail(start < this.source.length ? "unexpected character" : "expected a number");
    }
    return finite(Number(this.source.slice(start, this.pos)));
  }

  /**
   * The operator at the cursor (after spaces): "**" is one operator, not two "*". Any other
   * character comes back as it is (undefined at the end): the callers compare it with the
   * operators they accept, and nothing else matches one.
   */
  private peekOperator(): string | undefined {
    this.skipSpaces();
    const c = this.source[this.pos];
    return c === "*" && this.source[this.pos + 1] === "*" ? "**" : c;
  }

  private nested(read: () => number): number {
    if (++this.depth > MAX_CALC_DEPTH) this.fail(`nested deeper than ${MAX_CALC_DEPTH} levels`);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  private skipSpaces(): void {
    while (this.source[this.pos] === " " || this.source[this.pos] === "\t") this.pos++;
  }

  /** Messages give a position, never a piece of the expression: it is the model's raw text. */
  private fail(message: string): never {
    throw new SyntaxError(`${message} at position ${this.pos}`);
  }
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";

/**
 * Every value on the way must be finite, not only the result: `1 / 10 ** 400` would otherwise
 * answer 0 and `(10 ** 400) ** 0` 1, from a step that already overflowed.
 */
function finite(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError("a number on the way is not finite (overflow or NaN)");
  return value;
}

/**
 * Evaluates an arithmetic expression. Throws SyntaxError for anything outside the grammar,
 * RangeError for a division (or %) by zero and for any value on the way (a number written in
 * the expression, any step, the result) that is not a finite number.
 */
export function calculate(expression: string): number {
  if (typeof expression !== "string") throw new SyntaxError("the expression must be a string");
  return new Parser(expression).parse();
}

/** The built-in tool: `calculate(expression="2 * (3 + 4)")`. */
export const calculateTool: ToolDefinition = {
  name: "calculate",
  params: [{ name: "expression" }],
  run({ expression }) {
    try {
      // calculate() refuses a value that is not a string with a SyntaxError as well.
      return calculate(expression as string);
    } catch (error) {
      // A malformed expression is the caller's mistake (bad_arguments); a division by zero is
      // the tool failing on valid input (tool_error, RangeError).
      if (error instanceof SyntaxError) throw new BadArgumentsError(error.message);
      throw error;
    }
  },
};

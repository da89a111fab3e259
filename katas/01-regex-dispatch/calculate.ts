// A safe calculator tool (README, task 5). No eval, no Function: a parser you write by hand.
import type { ToolDefinition } from "./types.ts";

/** Parentheses, unary minus and the right side of ** nest at most this deep. */
export const MAX_CALC_DEPTH = 100;

/**
 * TODO: evaluate + - * / % ** ( ) with unary minus and decimals (grammar in the README).
 * SyntaxError for anything else; RangeError for division by zero or any number on the way
 * (read, computed or the result) that is not finite. Messages never quote the expression.
 */
export function calculate(expression: string): number {
  throw new Error("not implemented");
}

/**
 * TODO: the tool `calculate(expression=...)`. Its run throws BadArgumentsError when `expression`
 * is not a string or not valid arithmetic, and lets RangeError through.
 */
export const calculateTool: ToolDefinition = {
  name: "calculate",
  params: [{ name: "expression" }],
  run(args) {
    throw new Error("not implemented");
  },
};

// Kata 1, task 5 of the README: the safe calculator and its tool.
import { describe, expect } from "vitest";
import { BadArgumentsError, calculate, calculateTool, createRegistry, dispatch, parseToolCalls } from "@impl/01-regex-dispatch";
import { l1, l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";

describe("5. The safe calculator: calculate and calculateTool", () => {
  describe("calculate", () => {
    l1("the four operations, remainder, parentheses and decimals", () => {
      expect(calculate("1 + 2 * 3")).toBe(7);
      expect(calculate("(1 + 2) * 3")).toBe(9);
      expect(calculate("10 / 4")).toBe(2.5);
      expect(calculate("7 % 3")).toBe(1);
      expect(calculate("1.5 + .5 + 2.")).toBe(4);
      expect(calculate("42")).toBe(42);
      expect(calculate("\t2*3 ")).toBe(6);
    });

    l2("left associativity of + - * / %", () => {
      expect(calculate("10 - 4 - 3")).toBe(3);
      expect(calculate("100 / 10 / 5")).toBe(2);
      expect(calculate("2 * 3 % 4")).toBe(2);
      expect(calculate("7 % 4 * 2")).toBe(6);
      expect(calculate("1 - 2 + 3")).toBe(2);
    });

    l2("** is right-associative and binds tighter than unary minus", () => {
      expect(calculate("2 ** 3 ** 2")).toBe(512);
      expect(calculate("-2 ** 2")).toBe(-4);
      expect(calculate("(-2) ** 2")).toBe(4);
      expect(calculate("2 ** -1")).toBe(0.5);
      expect(calculate("2 * 3 ** 2")).toBe(18);
    });

    l2("unary minus, repeated and before parentheses", () => {
      expect(calculate("--3")).toBe(3);
      expect(calculate("-(2 + 3)")).toBe(-5);
      expect(calculate("3 - -2")).toBe(5);
      expect(calculate("-7 % 3")).toBe(-1);
    });

    l2("division or remainder by zero and non-finite results are RangeErrors", () => {
      for (const expression of ["1 / 0", "0 / 0", "5 % 0", "1 / (2 - 2)", "1 / (1 / 0)", "10 ** 400", "(-8) ** 0.5"]) {
        expect(() => calculate(expression), expression).toThrow(RangeError);
      }
      expect(calculate("0 / 5")).toBe(0);
    });

    l2("every number on the way must be finite: an overflow that a later step would hide is a RangeError", () => {
      for (const expression of ["1 / 10 ** 400", "(10 ** 400) ** 0", "3 % 10 ** 400", "-(2 ** 1024) ** 0", `1 / 1${"0".repeat(400)}`, `1${"0".repeat(400)} ** 0`]) {
        expect(() => calculate(expression), `rule: any non-finite value on the way: ${expression.slice(0, 40)}`).toThrow(RangeError);
      }
      expect(calculate("10 ** 300 / 10 ** 300"), "finite steps are fine").toBe(1);
      expect(calculate("2 ** 1023 * 1.5"), "finite steps are fine").toBe(2 ** 1023 * 1.5);
    });

    l2("only spaces and tabs separate tokens: a line break or any other whitespace is a SyntaxError", () => {
      expect(calculate(" \t1 +\t2 \t"), "spaces and tabs anywhere between, before and after").toBe(3);
      for (const expression of ["1 +\n2", "1\r+ 2", "1 + 2\n", "1\u00a0+ 2", "\u30001", "1\v+2", "1 +\f2", "1\u2028+2"]) {
        expect(() => calculate(expression), `rule: no other whitespace: ${JSON.stringify(expression)}`).toThrow(SyntaxError);
      }
    });

    l3("calculate's errors never quote the expression: a secret in it does not come back", () => {
      const SECRET = "Jt6Nc3Xq8Bv1Kw4Z";
      for (const expression of [SECRET, `2 * ${SECRET}`, `(1 + 2) ${SECRET}`, `"${SECRET}"`, `1 / 0 + ${SECRET}`]) {
        let message = "";
        try {
          calculate(expression);
        } catch (error) {
          message = String((error as Error).message);
        }
        expect(message, `an error: ${expression}`).not.toBe("");
        expect(leakedPieces(message, SECRET), `rule: an argument error never quotes the expression: ${message}`).toEqual([]);
      }
      const result = dispatch(`calculate(expression="${SECRET} ** 2")`, createRegistry([calculateTool]));
      expect(result.results.map((r) => r.error?.code), "bad_arguments").toEqual(["bad_arguments"]);
      expect(leakedPieces(result.results[0].error?.message ?? "", SECRET), "rule: calculateTool's bad_arguments never quotes the expression").toEqual([]);
    });

    l3("anything outside the grammar is a SyntaxError: no names, no calls, no code", () => {
      for (const expression of [
        "", " ", "x", "1 +", "(1", "1)", "()", "2 ^ 3", "1e3", "+1", "1, 2", "1 2", "2 *** 3", "1..2",
        "Math.PI", "constructor", "this", "[]", "alert(1)", "process.exit(1)", "1; 2",
        "constructor.constructor('return process')()", "globalThis", "0x10", "1_000", "２",
      ]) {
        expect(() => calculate(expression), JSON.stringify(expression)).toThrow(SyntaxError);
      }
      expect(calculate("2 ** 10")).toBe(1024);
    });

    l3("nesting is bounded: 100 parentheses are fine, 101 or a million are a SyntaxError", () => {
      expect(calculate("(".repeat(100) + "1" + ")".repeat(100))).toBe(1);
      expect(() => calculate("(".repeat(101) + "1" + ")".repeat(101))).toThrow(SyntaxError);
      expect(() => calculate("(".repeat(1_000_000) + "1")).toThrow(SyntaxError);
      expect(() => calculate("-".repeat(1_000_000) + "1")).toThrow(SyntaxError);
    });

    l3("calculate and parsing never call eval or Function", () => {
      const realEval = globalThis.eval;
      const RealFunction = globalThis.Function;
      const used: string[] = [];
      globalThis.eval = ((code: string) => { used.push("eval"); return realEval(code); }) as typeof eval;
      globalThis.Function = new Proxy(RealFunction, {
        apply(target, self, args) { used.push("Function"); return Reflect.apply(target, self, args); },
        construct(target, args) { used.push("Function"); return Reflect.construct(target, args); },
      });
      try {
        expect(calculate("(1 + 2) * 3 ** 2 - 4 / 2 % 3")).toBe(25);
        expect(parseToolCalls(`f(1, "x", [true], {"a": None})`).calls).toHaveLength(1);
      } finally {
        globalThis.eval = realEval;
        globalThis.Function = RealFunction;
      }
      expect(used).toEqual([]);
    });
  });

  describe("calculateTool through dispatch", () => {
    l1("calculate(expression=...) runs and returns the number", () => {
      const registry = createRegistry([calculateTool]);
      const result = dispatch(`The answer: calculate(expression="2 * (3 + 4)") and calculate("1 + 1")`, registry);
      expect(result.results.map((r) => r.value)).toEqual([14, 2]);
      expect(calculateTool.name).toBe("calculate");
      expect(calculateTool.params.map((p) => p.name)).toEqual(["expression"]);
    }, { core: true });

    l2("an invalid expression or a non-string is bad_arguments; division by zero is a RangeError tool_error", () => {
      const registry = createRegistry([calculateTool]);
      const result = dispatch(`calculate("x + 1") calculate(42) calculate() calculate("1/0") calculate("6*7")`, registry);
      expect(result.results.map((r) => r.error?.code ?? r.value)).toEqual(["bad_arguments", "bad_arguments", "bad_arguments", "tool_error", 42]);
      expect(result.results[3].error?.type).toBe("RangeError");
    });
  });

  l2("spaces and tabs around every token, parentheses included", () => {
    expect(calculate(" ( 1 + 2 ) * 3 ")).toBe(9);
    expect(calculate("\t2\t*\t(\t3\t)\t")).toBe(6);
    expect(calculate("9 + 19")).toBe(28);
  });

  l2("% by zero is a RangeError even where NaN would vanish; * by zero is fine", () => {
    expect(() => calculate("(5 % 0) ** 0")).toThrow(RangeError);
    expect(calculate("2 * 0")).toBe(0);
    expect(calculate("0 % 5")).toBe(0);
  });

  l2("calculate refuses anything that is not a string with a SyntaxError, string-like objects too", () => {
    expect(calculate("12")).toBe(12);
    for (const value of [12, null, undefined, ["12"], new String("12")]) {
      expect(() => calculate(value as string), String(value)).toThrow(SyntaxError);
    }
  });

  l2("calculateTool.run rejects bad input with a BadArgumentsError whose name is \"BadArgumentsError\"", () => {
    expect(calculateTool.run({ expression: "2 * 3" })).toBe(6);
    for (const expression of ["1 +", "x", 5, null, ["1"]]) {
      let thrown: unknown;
      try {
        calculateTool.run({ expression });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(expression)).toBeInstanceOf(BadArgumentsError);
      expect((thrown as Error).name).toBe("BadArgumentsError");
    }
  });

  l2("no operator is glued to another: '5 -*2' is a SyntaxError", () => {
    expect(() => calculate("5 -*2")).toThrow(SyntaxError);
  });

  l3("the depth limit counts nesting, not how many parentheses the expression has", () => {
    expect(calculate(Array.from({ length: 150 }, () => "(1)").join(" + "))).toBe(150);
    expect(calculate(Array.from({ length: 150 }, () => "-1").join(" - "))).toBe(148);
  });
});

// Held-out bank, kata 1, tasks 2, 4 and 5: the registry, dispatch and the safe calculator, with
// examples the visible specs do not use and random cases checked against an independent oracle.
import fc from "fast-check";
import { describe, expect } from "vitest";
import {
  BadArgumentsError, calculate, calculateTool, createRegistry, dispatch, parseToolCalls, type ToolDefinition, type Value,
} from "@impl/01-regex-dispatch";
import { l1, l2, l3 } from "../../support/graded.ts";
import { leakedPieces } from "../../support/leaks.ts";
import { spyTool } from "../helpers.ts";
import { prototypeName, recase } from "../arbitraries.ts";

const throwing = (name: string, thrown: () => unknown): ToolDefinition => ({
  name, params: [], run() { throw thrown(); },
});
const codes = (text: string, tools: ToolDefinition[]) =>
  dispatch(text, createRegistry(tools)).results.map((r) => r.error?.code ?? "ok");

describe("2. The whitelist: createRegistry", () => {
  l2("non-ASCII names are case-folded with toLowerCase", () => {
    const tool = spyTool(" Ärger.Melden ");
    const registry = createRegistry([tool, spyTool("ZÄHLEN")]);
    expect(registry.names()).toEqual(["ärger.melden", "zählen"]);
    expect(registry.lookup("ÄRGER.MELDEN")).toBe(tool);
    expect(registry.lookup("arger.melden")).toBeUndefined();
    expect(() => createRegistry([spyTool("Éclair"), spyTool("éCLAIR")])).toThrow(Error);
  });

  l3.property("random registries: names found under any case and padding, prototype names never", () => {
    // Non-ASCII letters on purpose: case-folding is toLowerCase, not an ASCII-only shortcut.
    const name = fc.stringMatching(/^[a-zäöüéçñ][a-zäöüéçñ0-9_]{0,6}(\.[a-zäöüé][a-z0-9_]{0,4})?$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 5 }), fc.array(fc.boolean(), { minLength: 1 }), prototypeName, fc.constantFrom("", " ", "\t", "\n "),
        (names, flips, proto, pad) => {
          const tools = names.map((n) => spyTool(n));
          const registry = createRegistry(tools);
          names.forEach((n, i) => expect(registry.lookup(pad + recase(n, flips) + pad)).toBe(tools[i]));
          expect(registry.lookup(proto)).toBeUndefined();
          expect(registry.names()).toEqual(names);
        }),
    );
  });
});

describe("4. Dispatch", () => {
  l1("a dotted name registered in capitals runs with its positional arguments bound", () => {
    const gcd = spyTool("Math.GCD", [{ name: "a" }, { name: "b" }], 6);
    const result = dispatch("The gcd: math.gcd(12, 18).", createRegistry([gcd]));
    expect(gcd.calls).toEqual([{ a: 12, b: 18 }]);
    expect(result.results[0]).toMatchObject({ ok: true, value: 6 });
    expect(result.text).toBe("The gcd: .");
  });

  l2("one positional argument too many is bad_arguments, and the tool does not run", () => {
    const add = spyTool("add", [{ name: "x" }, { name: "y" }]);
    expect(codes("add(1, 2, 3) add(4, 5)", [add])).toEqual(["bad_arguments", "ok"]);
    expect(add.calls).toEqual([{ x: 4, y: 5 }]);
  });

  l2("a parameter given positionally and by keyword is bad_arguments", () => {
    const greet = spyTool("greet", [{ name: "name" }, { name: "tone", optional: true }]);
    expect(codes(`greet("Ann", name="Bob") greet("Ann", tone="warm")`, [greet])).toEqual(["bad_arguments", "ok"]);
    expect(greet.calls).toEqual([{ name: "Ann", tone: "warm" }]);
  });

  l2("an omitted optional parameter has no key; a keyword that names no parameter is refused", () => {
    const find = spyTool("find", [{ name: "q" }, { name: "limit", optional: true }]);
    expect(codes(`find("tea") find(q="tea", lang="zh") find(constructor=1, q="x")`, [find])).toEqual(["ok", "bad_arguments", "bad_arguments"]);
    expect(find.calls).toEqual([{ q: "tea" }]);
    expect(Object.keys(find.calls[0])).toEqual(["q"]);
  });

  l2.property("binding follows the README's rules for any parameters and any arguments", () => {
    const NAMES = ["a", "b", "c", "d"];
    const params = fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 4 })
      .chain((names) => fc.tuple(...names.map((name) => fc.boolean().map((optional) => ({ name, optional })))));
    fc.assert(
      fc.property(params, fc.array(fc.integer({ min: -99, max: 99 }), { maxLength: 5 }),
        fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES, "z"), fc.integer({ min: -99, max: 99 })), { maxLength: 4, selector: ([k]) => k }),
        (ps, positional, keywords) => {
          const tool = spyTool("t", ps);
          const text = `t(${[...positional.map(String), ...keywords.map(([k, v]) => `${k}=${v}`)].join(", ")})`;
          const result = dispatch(text, createRegistry([tool]));
          // The oracle: the README's binding rules, step by step.
          const names = ps.map((p) => p.name);
          const given = new Set(names.slice(0, positional.length));
          const expected: Record<string, Value> = {};
          positional.slice(0, names.length).forEach((v, i) => (expected[names[i]] = v));
          let ok = positional.length <= names.length;
          for (const [k, v] of keywords) {
            if (!names.includes(k) || given.has(k)) ok = false;
            given.add(k);
            expected[k] = v;
          }
          if (ps.some((p) => !p.optional && !given.has(p.name))) ok = false;
          expect(result.results).toHaveLength(1);
          if (ok) {
            expect(result.results[0].ok).toBe(true);
            expect(tool.calls).toEqual([expected]);
          } else {
            expect(result.results[0].error?.code).toBe("bad_arguments");
            expect(tool.calls).toEqual([]);
          }
        }),
    );
  });

  l2("thrown values: an Error's renamed name, a plain object, null, a symbol, a BadArgumentsError subclass", () => {
    class RateLimited extends BadArgumentsError {}
    const results = dispatch("a() b() c() d() e()", createRegistry([
      throwing("a", () => Object.assign(new Error("upstream 502"), { name: "HttpError" })),
      throwing("b", () => ({ name: "NotAnError", message: "fake" })),
      throwing("c", () => null),
      throwing("d", () => Symbol("s")),
      throwing("e", () => new RateLimited("slow down")),
    ])).results;
    expect(results.map((r) => r.error)).toEqual([
      { code: "tool_error", type: "HttpError", message: "upstream 502" },
      { code: "tool_error", type: "object", message: "[object Object]" },
      { code: "tool_error", type: "object", message: "null" },
      { code: "tool_error", type: "symbol", message: "Symbol(s)" },
      expect.objectContaining({ code: "bad_arguments", message: "slow down" }),
    ]);
  });

  l3.property("any error message comes back as is, without its stack, and the next call still runs", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.constantFrom("Error", "TypeError", "SyntaxError", "QuotaError"), (message, name) => {
        const after = spyTool("after");
        const error = new Error(message);
        error.name = name;
        const result = dispatch("boom() after()", createRegistry([throwing("boom", () => error), after]));
        expect(result.results[0].error).toEqual({ code: "tool_error", type: name, message });
        expect(JSON.stringify(result.results[0])).not.toContain("    at ");
        expect(after.calls).toHaveLength(1);
      }),
    );
  });

  l3.property("dispatch never throws, whatever the text and whatever the tools throw", () => {
    const piece = fc.constantFrom("boom(", "ok(", "nope(", ")", "1", "\"x", "'", "[", "]", "{", "}", ",", "=", "TOOL_CALL: {\"name\": \"ok\"}", " ", "\n", "“", "）");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const ok = spyTool("ok", [{ name: "x", optional: true }]);
        const registry = createRegistry([ok, throwing("boom", () => Object.create(null))]);
        const text = pieces.join("");
        const result = dispatch(text, registry);
        expect(Array.isArray(result.results)).toBe(true);
        expect(ok.calls.length).toBeLessThanOrEqual(result.results.length);
      }),
    );
  });
});

describe("4. Dispatch: what counts as a BadArgumentsError, and keywords given twice", () => {
  l2("look-alikes of BadArgumentsError are tool_errors; a real subclass under another name is bad_arguments", () => {
    // A tool's own class that happens to carry the same name: not the kata's class.
    class LocalBadArgumentsError extends Error {
      constructor(message: string) {
        super(message);
        this.name = "BadArgumentsError";
      }
    }
    class QuotaExceeded extends BadArgumentsError {
      constructor(message: string) {
        super(message);
        this.name = "QuotaExceeded";
      }
    }
    class DailyQuota extends QuotaExceeded {}
    const after = spyTool("after");
    const results = dispatch("units() local() plain() quota() daily() after()", createRegistry([
      throwing("units", () => Object.assign(new TypeError("bad units"), { name: "BadArgumentsError" })),
      throwing("local", () => new LocalBadArgumentsError("own class")),
      throwing("plain", () => ({ name: "BadArgumentsError", message: "just data" })),
      throwing("quota", () => new QuotaExceeded("over quota")),
      throwing("daily", () => new DailyQuota("over daily quota")),
      after,
    ])).results;
    expect(results.slice(0, 3).map((r) => r.error), "rule: only instanceof BadArgumentsError counts, never the name").toEqual([
      { code: "tool_error", type: "BadArgumentsError", message: "bad units" },
      { code: "tool_error", type: "BadArgumentsError", message: "own class" },
      { code: "tool_error", type: "object", message: "[object Object]" },
    ]);
    expect(results.slice(3, 5).map((r) => r.error), "rule: subclasses included, whatever their name").toEqual([
      expect.objectContaining({ code: "bad_arguments", message: "over quota" }),
      expect.objectContaining({ code: "bad_arguments", message: "over daily quota" }),
    ]);
    expect(results[5]).toMatchObject({ ok: true });
    expect(after.calls).toHaveLength(1);
  });

  l2.property("any Error renamed BadArgumentsError is a tool_error; any BadArgumentsError, renamed or subclassed, is bad_arguments", () => {
    class Sub extends BadArgumentsError {}
    const impostor = fc.constantFrom(
      (m: string) => new Error(m), (m: string) => new TypeError(m), (m: string) => new RangeError(m), (m: string) => new SyntaxError(m),
    );
    const genuine = fc.constantFrom((m: string) => new BadArgumentsError(m), (m: string) => new Sub(m));
    const name = fc.constantFrom("BadArgumentsError", "Error", "TypeError", "bad_arguments", "BadArgumentsError ", "");
    fc.assert(
      fc.property(fc.boolean(), impostor, genuine, name, fc.string({ maxLength: 20 }), (real, makeOther, makeReal, newName, message) => {
        const error = real ? makeReal(message) : makeOther(message);
        // The look-alike always carries the class's name; a real one may carry any name.
        error.name = real ? newName : "BadArgumentsError";
        const ok = spyTool("ok");
        const result = dispatch("raise() ok()", createRegistry([throwing("raise", () => error), ok]));
        expect(result.results[0].error, `rule: instanceof decides, not the name (${real ? "real" : "look-alike"})`).toEqual(
          real ? expect.objectContaining({ code: "bad_arguments", message }) : { code: "tool_error", type: "BadArgumentsError", message },
        );
        expect(result.results[1]).toMatchObject({ ok: true });
      }),
    );
  });

  l2("a keyword given twice never runs the tool, even when both values agree; the next call still runs", () => {
    const pay = spyTool("pay", [{ name: "amount" }, { name: "note", optional: true }]);
    const registry = createRegistry([pay]);
    for (const text of ["pay(amount=5, amount=5)", 'pay(amount=5, note="rent", amount=500)', "pay(amount=0, amount=0)"]) {
      expect(dispatch(text, registry), `rule: a keyword given twice is prose: ${text}`).toEqual({ text, results: [] });
    }
    expect(pay.calls, "rule: the tool never ran").toEqual([]);
    const result = dispatch("pay(note=1, note=2) then pay(amount=7)", registry);
    expect(result.results.map((r) => r.call?.kwargs), "rule: only the well-formed call is read").toEqual([{ amount: 7 }]);
    expect(pay.calls).toEqual([{ amount: 7 }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Arithmetic expressions with a known value: an AST rendered with the fewest parentheses the
// README's precedence needs (plus some extra ones), evaluated here by plain JavaScript arithmetic.

type Expr =
  | { kind: "num"; text: string }
  | { kind: "bin"; op: "+" | "-" | "*" | "/" | "%"; left: Expr; right: Expr }
  | { kind: "neg"; arg: Expr }
  | { kind: "pow"; base: Expr; exp: Expr }
  | { kind: "paren"; inner: Expr };

const numberText = fc.oneof(
  fc.integer({ min: 0, max: 20 }).map(String),
  fc.constantFrom("0.5", "2.", ".25", "1.5", "10", "0", "3.75"),
);

const expr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", maxDepth: 5, withCrossShrink: true },
    numberText.map((text): Expr => ({ kind: "num", text })),
    fc.tuple(fc.constantFrom("+", "-", "*", "/", "%" as const), tie("e"), tie("e")).map(([op, left, right]): Expr => ({ kind: "bin", op, left, right })),
    tie("e").map((arg): Expr => ({ kind: "neg", arg })),
    fc.tuple(tie("e"), fc.integer({ min: -2, max: 3 })).map(([base, n]): Expr => ({
      kind: "pow", base, exp: n < 0 ? { kind: "neg", arg: { kind: "num", text: String(-n) } } : { kind: "num", text: String(n) },
    })),
    tie("e").map((inner): Expr => ({ kind: "paren", inner })),
  ),
})).e;

const PREC = { "+": 1, "-": 1, "*": 2, "/": 2, "%": 2 } as const;
const prec = (e: Expr): number =>
  e.kind === "bin" ? PREC[e.op] : e.kind === "neg" ? 3 : e.kind === "pow" ? 4 : 5;

function render(e: Expr, sp: string): string {
  const wrap = (child: Expr, need: boolean) => (need ? `(${render(child, sp)})` : render(child, sp));
  switch (e.kind) {
    case "num": return e.text;
    case "paren": return `(${sp}${render(e.inner, sp)}${sp})`;
    case "neg": return "-" + wrap(e.arg, prec(e.arg) < 3);
    case "pow": return wrap(e.base, prec(e.base) < 5) + `${sp}**${sp}` + wrap(e.exp, prec(e.exp) < 3);
    case "bin": return wrap(e.left, prec(e.left) < PREC[e.op]) + `${sp}${e.op}${sp}` + wrap(e.right, prec(e.right) <= PREC[e.op]);
  }
}

/** The value, or "range" for a division by zero anywhere or any value on the way that is not finite. */
function evaluate(e: Expr): number | "range" {
  let zero = false;
  let infinite = false;
  const go = (x: Expr): number => {
    let v: number;
    switch (x.kind) {
      case "num": v = Number(x.text); break;
      case "paren": v = go(x.inner); break;
      case "neg": v = -go(x.arg); break;
      case "pow": v = go(x.base) ** go(x.exp); break;
      case "bin": {
        const l = go(x.left), r = go(x.right);
        if ((x.op === "/" || x.op === "%") && r === 0) zero = true;
        v = x.op === "+" ? l + r : x.op === "-" ? l - r : x.op === "*" ? l * r : x.op === "/" ? l / r : l % r;
      }
    }
    if (!Number.isFinite(v)) infinite = true;
    return v;
  };
  const value = go(e);
  return zero || infinite ? "range" : value;
}

describe("5. The safe calculator: calculate and calculateTool", () => {
  l1("precedence and associativity on new examples", () => {
    expect(calculate("8 - 3 * 2")).toBe(2);
    expect(calculate("(2 + 3) * (4 - 1)")).toBe(15);
    expect(calculate("9 / 3 / 3")).toBe(1);
    expect(calculate("2 ** 2 ** 3")).toBe(256);
    expect(calculate("-3 ** 2")).toBe(-9);
    expect(calculate("17 % 5 % 3")).toBe(2);
    expect(calculate("0.1 + 0.2")).toBe(0.1 + 0.2);
    expect(calculate("2 ** - 2")).toBe(0.25);
  });

  l2("RangeError for a zero divisor deep inside and for NaN or overflow; SyntaxError for the rest", () => {
    for (const e of ["1 % (3 - 3)", "2 ** 2000", "(-27) ** (1 / 3)", "(4 - 4) / (2 - 2)"]) {
      expect(() => calculate(e), e).toThrow(RangeError);
    }
    for (const e of ["2 3", "3 +* 4", "abs(3)", "1 + 2;", "--", "(", "1.2.3", "１+1", "2 // 3", "pi", "true", "-"]) {
      expect(() => calculate(e), e).toThrow(SyntaxError);
    }
    expect(calculate("3 * -2")).toBe(-6);
  });

  l2("a division or % by zero nested where the final value would be finite is still a RangeError", () => {
    // 7 % Infinity is 7, 4 / Infinity is 0, Infinity ** 0 and NaN ** 0 are 1: only the zero divisor is wrong.
    for (const e of ["7 % (3 / 0)", "4 / (9 / (1 - 1))", "(6 / 0) ** 0", "-(2 % (4 - 4)) ** 0", "1 + 0 * 0 % (8 / (0 * 3))"]) {
      expect(() => calculate(e), `rule: a division or % by zero anywhere: ${e}`).toThrow(RangeError);
    }
    expect(calculate("7 % (3 / 1)"), "a non-zero divisor is fine").toBe(1);
  });

  l2("an overflow inside a step is a RangeError even when the final value would be finite", () => {
    for (const e of ["5 / (10 ** 500)", "(3 ** 2000) ** 0", "8 % (2 ** 2000)", `2 / 9${"9".repeat(350)}`]) {
      expect(() => calculate(e), `rule: any non-finite value on the way: ${e.slice(0, 30)}`).toThrow(RangeError);
    }
    expect(calculate("5 / 10 ** 5"), "no overflow").toBe(0.00005);
  });

  l3("calculateTool's bad_arguments message never quotes the expression", () => {
    const SECRET = "Mv8Qd2Hs6Zp3Wc9T";
    const result = dispatch(`calculate("${SECRET}") calculate(expression="(1 + ${SECRET}")`, createRegistry([calculateTool]));
    expect(result.results.map((r) => r.error?.code), "both are bad_arguments").toEqual(["bad_arguments", "bad_arguments"]);
    for (const r of result.results) {
      expect(leakedPieces(r.error?.message ?? "", SECRET), `rule: an argument error never quotes the model's text: ${r.error?.message}`).toEqual([]);
    }
  });

  l3("the nesting limit counts unary minus and the right operand of ** too", () => {
    expect(calculate("-".repeat(100) + "1")).toBe(1);
    expect(() => calculate("-".repeat(101) + "1")).toThrow(SyntaxError);
    expect(calculate("1 ** ".repeat(100) + "1")).toBe(1);
    expect(() => calculate("1 ** ".repeat(101) + "1")).toThrow(SyntaxError);
  });

  l2.property("random expressions give the value plain arithmetic gives, or a RangeError", () => {
    fc.assert(
      fc.property(expr, fc.constantFrom("", " ", "\t"), (e, sp) => {
        const text = render(e, sp);
        const want = evaluate(e);
        if (want === "range") expect(() => calculate(text), text).toThrow(RangeError);
        // "+ 0" folds -0 into 0: the README does not say which zero "-0" or "0 * -1" is.
        else expect(calculate(text) + 0, text).toBe(want + 0);
      }),
    );
  });

  l3.property("a name or a forbidden character anywhere in an expression is a SyntaxError", () => {
    const intruder = fc.constantFrom("x", "Math.PI", "constructor", "eval", "e", "1e3", "^", ",", ";", "[1]", "!", "'2'");
    fc.assert(
      fc.property(expr, intruder, fc.nat(), (e, bad, at) => {
        // No division, remainder or negative power: then no prefix of the text can be a
        // RangeError, and the README's only answer for the spliced text is a SyntaxError.
        const text = render(e, " ");
        fc.pre(typeof evaluate(e) === "number" && !/[/%]|\*\* -/.test(text));
        // At a token boundary (a space, or either end), so no number is split in two.
        const cuts = [0, text.length, ...[...text].flatMap((c, i) => (c === " " ? [i] : []))];
        const i = cuts[at % cuts.length];
        const spliced = `${text.slice(0, i)} ${bad} ${text.slice(i)}`;
        expect(() => calculate(spliced), spliced).toThrow(SyntaxError);
      }),
    );
  });

  l2.property("extra parentheses and spacing around any sub-expression change nothing", () => {
    fc.assert(
      fc.property(expr, (e) => {
        const want = evaluate(e);
        fc.pre(typeof want === "number");
        expect(calculate(`( ${render(e, "")} )`) + 0).toBe(want + 0);
        expect(calculate(`-(-(${render(e, " ")}))`) + 0).toBe(want + 0);
      }),
    );
  });

  l2.property("calculateTool through dispatch returns the value of any valid expression", () => {
    fc.assert(
      fc.property(expr, (e) => {
        const want = evaluate(e);
        fc.pre(typeof want === "number");
        const result = dispatch(`calculate(expression="${render(e, " ")}")`, createRegistry([calculateTool]));
        expect(result.results.map((r) => (r.value as number) + 0)).toEqual([want + 0]);
      }),
    );
  });

  l2("calculateTool through dispatch: keyword, positional, range and type errors", () => {
    const result = dispatch(`calculate(expression="(2 + 3) ** 2") calculate("7 % 4") calculate(expression="1 % 0") calculate(expression=["1"]) calculate("2 ^ 3")`, createRegistry([calculateTool]));
    expect(result.results.map((r) => r.error?.code ?? r.value)).toEqual([25, 3, "tool_error", "bad_arguments", "bad_arguments"]);
    expect(result.results[2].error?.type).toBe("RangeError");
  });
});

describe("5. The safe calculator: BadArgumentsError and whitespace", () => {
  const thrownBy = (expression: unknown): unknown => {
    try {
      calculateTool.run({ expression: expression as Value });
    } catch (error) {
      return error;
    }
    return undefined;
  };

  l2("calculateTool.run throws an instance of BadArgumentsError for new malformed or non-string inputs, a RangeError stays one", () => {
    expect(calculateTool.run({ expression: "(4 + 5) % 7" })).toBe(2);
    for (const expression of ["4 **", "(2", "1 +\n1", "tan(1)", "", "3 ^ 2", true, 3.5, { e: "1" }]) {
      const thrown = thrownBy(expression);
      expect(thrown, `rule: run throws BadArgumentsError itself, not an Error named so: ${JSON.stringify(expression)}`).toBeInstanceOf(BadArgumentsError);
    }
    const range = thrownBy("7 / (2 - 2)");
    expect(range, "rule: a division by zero is let through").toBeInstanceOf(RangeError);
    expect(range).not.toBeInstanceOf(BadArgumentsError);
  });

  l2.property("calculateTool.run: any malformed expression or non-string throws an instance of BadArgumentsError", () => {
    const intruder = fc.constantFrom("y", "Math.E", "^", ",", "!", "1e2", "\n", "()", "[2]", "=");
    const notAString = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }));
    fc.assert(
      fc.property(expr, intruder, fc.nat(), fc.option(notAString, { nil: undefined }), (e, bad, at, other) => {
        let input: unknown = other;
        if (other === undefined) {
          // As in the property above: no prefix of the spliced text can be a RangeError.
          const text = render(e, " ");
          fc.pre(typeof evaluate(e) === "number" && !/[/%]|\*\* -/.test(text));
          const cuts = [0, text.length, ...[...text].flatMap((c, i) => (c === " " ? [i] : []))];
          const i = cuts[at % cuts.length];
          input = `${text.slice(0, i)} ${bad} ${text.slice(i)}`;
        }
        const thrown = thrownBy(input);
        expect(thrown, `rule: bad input is a BadArgumentsError instance: ${JSON.stringify(input)}`).toBeInstanceOf(BadArgumentsError);
      }),
    );
  });

  l2("only spaces and tabs between tokens: line breaks and other whitespace at new positions are SyntaxErrors", () => {
    expect(calculate("\t(\t2 ** 3 )\t% 5  "), "rule: spaces and tabs anywhere").toBe(3);
    expect(calculate("-\t4 *  -\t2"), "rule: after a unary minus too").toBe(8);
    for (const expression of ["\n7", "7\r", "2 **\r\n3", "( 1 + 2\u2029)", "\ufeff1", "3 -\u20035", "4\u202f* 2", "(\u205f9)", "8 %\u16803", "1\u0085+ 1", "6 /\u3000\u30002"]) {
      expect(() => calculate(expression), `rule: no other whitespace: ${JSON.stringify(expression)}`).toThrow(SyntaxError);
    }
    const result = dispatch('calculate("6 *\n7") calculate("6 *\t7") calculate(expression=“5\r- 1”)', createRegistry([calculateTool]));
    expect(result.results.map((r) => r.error?.code ?? r.value), "rule: through dispatch, bad_arguments").toEqual(["bad_arguments", 42, "bad_arguments"]);
  });

  l2.property("spaces and tabs between any tokens keep the value; one other whitespace character between tokens is a SyntaxError", () => {
    const TOKEN = /\*\*|\d+\.?\d*|\.\d+|[-+*/%()]/g;
    const blank = fc.constantFrom("", " ", "\t", " \t", "\t\t ");
    const other = fc.constantFrom("\n", "\r", "\r\n", "\u3000", "\u00a0", "\v", "\f", "\u2028", "\u2029", "\ufeff", "\u1680", "\u2000",
      "\u2003", "\u200a", "\u202f", "\u205f", "\u0085", "\u200b");
    const where = fc.oneof(fc.constant("start"), fc.constant("end"), fc.nat());
    fc.assert(
      fc.property(expr, fc.array(blank, { minLength: 60, maxLength: 60 }), other, where, blank, blank, (e, gaps, bad, at, left, right) => {
        const tokens = render(e, "").match(TOKEN) ?? [];
        expect(tokens.join("")).toBe(render(e, ""));
        const spaced = (extra?: { at: number; text: string }) =>
          tokens.map((t, i) => (extra?.at === i ? extra.text : gaps[i % gaps.length]) + t).join("") +
          (extra?.at === tokens.length ? extra.text : gaps[tokens.length % gaps.length]);
        const want = evaluate(e);
        const text = spaced();
        if (want === "range") expect(() => calculate(text), text).toThrow(RangeError);
        else expect(calculate(text) + 0, `rule: spaces and tabs are allowed: ${JSON.stringify(text)}`).toBe(want + 0);

        // As in the properties above: no prefix of the text can be a RangeError.
        fc.pre(typeof want === "number" && !/[/%]|\*\*-/.test(render(e, "")));
        const i = at === "start" ? 0 : at === "end" ? tokens.length : at % (tokens.length + 1);
        const broken = spaced({ at: i, text: left + bad + right });
        expect(() => calculate(broken), `rule: no other whitespace: ${JSON.stringify(broken)}`).toThrow(SyntaxError);
      }),
    );
  });
});

describe("2. The whitelist: refusals and look-ups, on new inputs", () => {
  const named = (name: unknown, run: unknown = () => "ran") => ({ name, params: [], run }) as unknown as ToolDefinition;

  l2("createRegistry throws an Error for a blank name, a name that is no primitive string, a run that is no function, two names equal once normalised", () => {
    for (const tools of [
      [named("\t\n\u3000")], [named("")], [named(7)], [named(new String("calc"))], [named(Symbol("calc"))], [named(false)], [named({ toString: () => "calc" })],
      [named("calc", "calc")], [named("calc", {})], [named("calc", null)], [{ name: "calc", params: [] } as unknown as ToolDefinition],
      [named("Sum"), named("sum\n")], [named("Ünit"), named(" üNIT")], [named("a"), named("b"), named("\tA ")],
    ]) {
      expect(() => createRegistry(tools), `rule: refused: ${tools.map((t) => String(typeof t.name === "symbol" ? "symbol" : t.name)).join(", ")}`).toThrow(Error);
    }
    expect(createRegistry([named("sum"), named("sums"), named("Sum.All")]).names(), "distinct names are fine").toEqual(["sum", "sums", "sum.all"]);
  });

  l2("lookup: anything that is not a string is undefined and never throws; Object.prototype names are never found", () => {
    const zeta = spyTool("Zeta");
    const registry = createRegistry([spyTool("calc"), zeta]);
    expect(registry.lookup("\tZETA\n"), "rule: lookup normalises the same way").toBe(zeta);
    for (const name of [7, null, undefined, true, {}, [], new String("calc"), Symbol("calc"), () => "calc", ["zeta"]]) {
      let found: unknown = "threw";
      expect(() => (found = registry.lookup(name as string)), "rule: lookup never throws").not.toThrow();
      expect(found, `rule: not a string: ${typeof name}`).toBeUndefined();
    }
    for (const name of ["__proto__", "constructor", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__", "toLocaleString", " Constructor ", "propertyIsEnumerable"]) {
      expect(registry.lookup(name), `rule: never a tool: ${name}`).toBeUndefined();
    }
  });

  l2.property("names are folded by toLowerCase, accented, Greek and Cyrillic letters included, on registration and on look-up", () => {
    const letter = fc.constantFrom(..."äöüéèàçñøåæœάέήίόύώαβγδεζηθλμπφχψωабвгдежзийклмнопрстуфхцчшщыэюя_");
    const name = fc.array(letter, { minLength: 1, maxLength: 6 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 4 }), fc.constantFrom("", " ", "\t", "\n"), (names, pad) => {
        const tools = names.map((n) => spyTool(`${pad}${n.toUpperCase()}${pad}`));
        const registry = createRegistry(tools);
        expect(registry.names(), "rule: trimmed and lower-cased").toEqual(names);
        names.forEach((n, i) => expect(registry.lookup(n), `rule: found by its lower-case name: ${n}`).toBe(tools[i]));
        const result = dispatch(`TOOL_CALL: {"name": "${names[0].toUpperCase()}"}`, registry);
        expect(result.results.map((r) => r.ok), "rule: a marker's name is looked up the same way").toEqual([true]);
      }),
    );
  });
});

describe("4. Dispatch: results, parse errors and what tools throw, on new inputs", () => {
  l2("a text with parse errors and no call: text is the prose, one parse_error per error, with a null call", () => {
    const ping = spyTool("ping", [{ name: "x", optional: true }]);
    const text = 'Sure: TOOL_CALL: {"name": 7} and ping("';
    const result = dispatch(text, createRegistry([ping]));
    expect(result.text, "rule: the text is the prose").toBe("Sure:  and ");
    expect(result.results.map((r) => [r.call, r.span, r.ok, r.error?.code, typeof r.error?.message])).toEqual([
      [null, { start: 6, end: 28 }, false, "parse_error", "string"],
      [null, { start: 33, end: text.length }, false, "parse_error", "string"],
    ]);
    expect(ping.calls, "rule: a truncated call never runs").toEqual([]);
  });

  l2("results are sorted by where they start: parse errors before, between and after calls", () => {
    const a = spyTool("a", [{ name: "x" }]);
    const b = spyTool("b", [{ name: "x" }]);
    const text = 'TOOL_CALL: {"name": ""} a(1) TOOL_CALL: {"name": 2} b(2) nope() c("';
    const result = dispatch(text, createRegistry([a, b]));
    expect(result.results.map((r) => [r.span.start, r.error?.code ?? "ok"]), "rule: sorted by span.start").toEqual([
      [0, "parse_error"], [24, "ok"], [29, "parse_error"], [52, "ok"], [57, "unknown_tool"], [64, "parse_error"],
    ]);
    expect(result.results.map((r) => r.call?.name ?? null)).toEqual([null, "a", null, "b", "nope", null]);
    expect(result.text).toBe("     ");
  });

  l2("unknown_tool: not ok, the call and its span kept, and nothing runs", () => {
    const ping = spyTool("ping");
    const text = "first nope(1, k=2) then ping()";
    const result = dispatch(text, createRegistry([ping]));
    const [call] = parseToolCalls(text).calls;
    expect(result.results[0]).toMatchObject({ call, span: { start: 6, end: 18 }, ok: false, error: { code: "unknown_tool" } });
    expect(typeof result.results[0].error?.message).toBe("string");
    expect(result.results[1]).toMatchObject({ ok: true, value: "ping:ok" });
    expect(ping.calls).toEqual([{}]);
  });

  l2("a name, message or String() that throws gives \"\", for a tool_error and for a BadArgumentsError alike", () => {
    const bomb = () => { throw new Error("gotcha"); };
    const badName = Object.defineProperty(new RangeError("range"), "name", { get: bomb });
    const badMessage = Object.defineProperty(new TypeError(), "message", { get: bomb });
    const badBad = Object.defineProperty(new BadArgumentsError("x"), "message", { get: bomb });
    const nameObject = Object.assign(new Error("named"), { name: { toString: bomb } });
    const results = dispatch("a() b() c() d() e() after()", createRegistry([
      throwing("a", () => badName), throwing("b", () => badMessage), throwing("c", () => badBad), throwing("d", () => nameObject),
      throwing("e", () => ({ toString: bomb })), spyTool("after"),
    ])).results;
    expect(results.map((r) => r.error ?? r.ok), "rule: a read that throws gives \"\"").toEqual([
      { code: "tool_error", type: "", message: "range" },
      { code: "tool_error", type: "TypeError", message: "" },
      expect.objectContaining({ code: "bad_arguments", message: "" }),
      { code: "tool_error", type: "", message: "named" },
      { code: "tool_error", type: "object", message: "" },
      true,
    ]);
  });

  l2("BadArgumentsError is an Error named \"BadArgumentsError\", and calculateTool throws it by that name", () => {
    const error = new BadArgumentsError("bad");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("BadArgumentsError");
    expect(error.message).toBe("bad");
    let thrown: unknown;
    try {
      calculateTool.run({ expression: "2 +* 2" });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(BadArgumentsError);
    expect((thrown as Error).name).toBe("BadArgumentsError");
  });

  l2("a tool's run gets own, plain keys even for parameters named like Object.prototype members", () => {
    const tool = spyTool("t", [{ name: "__proto__" }, { name: "toString", optional: true }, { name: "valueOf", optional: true }]);
    const result = dispatch('t([1], toString="s") t(valueOf=0, __proto__={a: 1})', createRegistry([tool]));
    expect(result.results.map((r) => r.ok)).toEqual([true, true]);
    const plain = (value: Value) => ({ value, enumerable: true, writable: true, configurable: true });
    expect(Object.getOwnPropertyDescriptors(tool.calls[0]), "rule: an own key for each parameter given").toEqual({ ["__proto__"]: plain([1]), toString: plain("s") });
    expect(Object.getOwnPropertyDescriptors(tool.calls[1])).toEqual({ valueOf: plain(0), ["__proto__"]: plain({ a: 1 }) });
  });

  l2.property("a parameter given positionally and again by keyword is bad_arguments in any style, and the message never quotes the values", () => {
    const SECRET = "Rq7Vb2Nx9Kt4Jm6C";
    const names = ["alpha", "beta", "gamma", "delta"];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.nat(), fc.nat(), fc.constantFrom([", ", '"', '"'], ["，", "“", "”"], [",", "'", "'"]),
        (n, pickGiven, pickTwice, [comma, open, close]) => {
          const params = names.slice(0, n).map((name) => ({ name }));
          const given = 1 + (pickGiven % n);
          const twice = names[pickTwice % given];
          const tool = spyTool("t", params);
          const positional = Array.from({ length: given }, (_, i) => `${open}${SECRET}${i}${close}`);
          const text = `t(${[...positional, `${twice}=${open}${SECRET}${close}`].join(comma)})`;
          const result = dispatch(text, createRegistry([tool]));
          expect(result.results.map((r) => r.error?.code), `rule: a parameter given twice: ${text}`).toEqual(["bad_arguments"]);
          expect(tool.calls, "rule: the tool does not run").toEqual([]);
          expect(leakedPieces(result.results[0].error?.message ?? "", SECRET), "rule: never quotes the model's text").toEqual([]);
        }),
    );
  });
});

describe("5. The safe calculator: how deep, not how many", () => {
  l3("the nesting limit counts depth: many parentheses or minus signs side by side are fine, 100 levels mixed are too, 102 are not", () => {
    expect(calculate(Array.from({ length: 120 }, () => "(-1)").join(" + ")), "rule: 120 groups side by side, each 2 deep").toBe(-120);
    expect(calculate(Array.from({ length: 70 }, () => "-(2 ** -(1))").join(" + ")), "rule: the depth goes back down after each group").toBe(-35);
    expect(calculate("-(".repeat(50) + "3" + ")".repeat(50)), "rule: 50 minus signs and 50 parentheses are 100 levels").toBe(3);
    expect(() => calculate("-(".repeat(51) + "3" + ")".repeat(51)), "rule: 102 levels").toThrow(SyntaxError);
  });
});

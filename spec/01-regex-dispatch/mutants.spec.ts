// Rules of the README that the other specs left unpinned, found by mutation testing
// (npm run mutate; docs/mutation-report.md). Each test checks a sentence of the README, never a
// detail of the reference that the README leaves open (error messages, for example).
import { describe, expect } from "vitest";
import {
  BadArgumentsError, calculate, calculateTool, createRegistry, dispatch, parseToolCalls, type Value,
} from "@impl/01-regex-dispatch";
import { l2, l3 } from "../support/graded.ts";
import { brief, optionalParams, spyTool } from "./helpers.ts";

/** The calls of `text`, as [name, args, kwargs]. */
const calls = (text: string) => parseToolCalls(text).calls.map((c) => [c.name, c.args, c.kwargs]);
/** The one call of `text` and no error. */
const one = (text: string) => {
  const r = parseToolCalls(text);
  expect(r.errors).toEqual([]);
  expect(r.calls).toHaveLength(1);
  return brief(r.calls[0]);
};
/** `text` holds nothing: no call, no error, prose unchanged. */
const nothing = (text: string) => {
  expect([text, parseToolCalls(text)]).toEqual([text, { calls: [], errors: [], prose: text }]);
};

describe("1. Finding calls: parseToolCalls", () => {
  l2("a name is identifiers joined by single dots: no empty segment, no segment starting with a digit", () => {
    expect(calls("a..b(1) and .c(2) and x.0a(3) y.9b(4) 0c(5)")).toEqual([]);
    expect(calls("m.a0(1) n._9(2)")).toEqual([
      ["m.a0", [1], {}],
      ["n._9", [2], {}],
    ]);
  });

  l2("whitespace includes \\r and U+3000; a bare word ends at a line break", () => {
    expect(one("f(1,\r\n\u30002)")).toEqual({ name: "f", args: [1, 2], kwargs: {} });
    expect(calls("f(a\nb)")).toEqual([]);
    expect(calls("f(a\rb)")).toEqual([]);
  });

  l2("a bare word may not contain （ [ { ” : such a list is prose, read again from the bare word", () => {
    expect(calls("f(a（b)")).toEqual([["a", ["b"], {}]]);
    expect(calls("f(a[b)")).toEqual([]);
    expect(calls("f(a{b)")).toEqual([]);
    expect(calls("f(a”b)")).toEqual([]);
  });

  l2("escapes: \\b \\f \\v \\0, and \\u{...} up to U+10FFFF with its closing brace", () => {
    expect(one('f("\\b\\f\\v\\0", "\\u{10FFFF}")').args).toEqual(["\b\f\v\0", "\u{10FFFF}"]);
    expect(calls('f("\\u{110000}")')).toEqual([]);
    expect(calls('f("\\u{0000410")')).toEqual([]);
    expect(calls('f("\\u{00000041}")')).toEqual([]);
  });

  l2("\\u{...} holds 1 to 6 hex digits: 6 read, 7 make the list invalid even with the brace", () => {
    expect(one('f("\\u{000041}", "\\u{1}")').args).toEqual(["A", "\u0001"]);
    nothing('f("\\u{0000041}") then');
  });

  l2("an empty argument is empty even with whitespace in it: f(1, , 2) and f( , ) are prose", () => {
    expect(one("f(1 , 2 ,)").args).toEqual([1, 2]);
    for (const text of ["f(1, , 2)", "f( , )", "f(a=1,\u3000,b=2)", "f(\n,\n)"]) nothing(text);
  });

  l2("a pythonic list may end with one trailing comma: still a list, cut whole; two commas are not a list", () => {
    const r = parseToolCalls("[a(1), b(2),] x");
    expect(r.calls.map((c) => [c.name, c.syntax, c.span])).toEqual([
      ["a", "list", { start: 1, end: 5 }],
      ["b", "list", { start: 7, end: 11 }],
    ]);
    expect(r.prose).toBe(" x");
    expect(parseToolCalls("[a(1) ,\n]").calls.map((c) => c.syntax)).toEqual(["list"]);
    expect(parseToolCalls("[a(1) ,\n]").prose).toBe("");
    const twice = parseToolCalls("[a(1),,]");
    expect(twice.calls.map((c) => [c.name, c.syntax])).toEqual([["a", "call"]]);
    expect(twice.prose).toBe("[,,]");
  });

  l2("parsed objects are plain data: own, enumerable, writable, configurable keys (__proto__ too)", () => {
    const plain = (value: Value) => ({ value, enumerable: true, writable: true, configurable: true });
    const call = parseToolCalls('f({a: 1, "__proto__": [2]}, k={b: 3})').calls[0];
    const object = call.args[0] as Record<string, Value>;
    expect(Object.getOwnPropertyDescriptor(object, "a")).toEqual(plain(1));
    expect(Object.getOwnPropertyDescriptor(object, "__proto__")).toEqual(plain([2]));
    expect(Object.getOwnPropertyDescriptor(call.kwargs, "k")).toEqual(plain({ b: 3 }));
    const marker = parseToolCalls('TOOL_CALL: {"name": "f", "arguments": {"q": "s"}}').calls[0];
    expect(Object.getOwnPropertyDescriptor(marker.kwargs, "q")).toEqual(plain("s"));
  });

  l2("a bad \\x escape makes the list invalid: prose, not a parse error", () => {
    for (const text of ['f("\\xZZ") then', 'f("\\xZ1") then', 'f("\\x4g") then', 'f("\\xg4") then']) nothing(text);
  });

  l2("bare words: a number only when the whole word has the documented shape and is finite", () => {
    expect(one("f(.25, 1.e2, -1.5e-3, .55)").args).toEqual([0.25, 100, -0.0015, 0.55]);
    expect(one("f(0x10, 0b1, 1e999, Infinity, 1e)").args).toEqual(["0x10", "0b1", "1e999", "Infinity", "1e"]);
  });

  l2("objects: bare keys stop at ：, a key needs : or ： after it, and a key is never empty", () => {
    expect(one("f({a：1, b: 2})").args).toEqual([{ a: 1, b: 2 }]);
    expect(calls("f({a =1})")).toEqual([]);
    expect(calls("f({: 1})")).toEqual([]);
    expect(calls("f(=1)")).toEqual([]);
  });

  l2("arrays and objects: items are separated by commas only", () => {
    expect(one('f(["a", "b"], {x: 1, y: [2, 3]})').args).toEqual([["a", "b"], { x: 1, y: [2, 3] }]);
    expect(calls('f(["a"x])')).toEqual([]);
  });

  l2("a keyword value is read after the =; a value that is not a key is positional", () => {
    expect(calls("x=f([1])")).toEqual([["f", [[1]], {}]]);
  });

  l2("a list needs commas between its calls; otherwise the brackets are prose and the calls plain calls", () => {
    const r = parseToolCalls("[a(1) b(2)]");
    expect(r.calls.map((c) => [c.name, c.syntax])).toEqual([
      ["a", "call"],
      ["b", "call"],
    ]);
    expect(r.prose).toBe("[ ]");
    expect(parseToolCalls("[a(1) xb(2)]").calls.map((c) => [c.name, c.syntax])).toEqual([
      ["a", "call"],
      ["xb", "call"],
    ]);
  });

  l2("an argument list that goes wrong: scanning goes on from where it went wrong, not from the parenthesis", () => {
    nothing('f("h(1)", (2))');
  });

  l2("TOOL_CALL: tabs before the colon; without a colon it is prose; another word with a colon is prose", () => {
    expect(parseToolCalls('TOOL_CALL\t: {"name": "f"}').calls.map((c) => [c.name, c.syntax])).toEqual([["f", "marker"]]);
    nothing('TOOL_CALL {"name": "f"}');
    nothing('TOOL_CALL x{"name": "f"}');
    nothing('note: {"a": 1}');
  });

  l2("objects nest at most 64 deep too; the error ends where the limit was hit", () => {
    const deep = (n: number) => `f(${"{a:".repeat(n)}1${"}".repeat(n)})`;
    expect(parseToolCalls(deep(64)).calls).toHaveLength(1);
    const r = parseToolCalls(`${deep(65)} g(2)`);
    expect(r.calls.map((c) => [c.name, c.args])).toEqual([["g", [2]]]);
    // The 65th "{" is at 2 + 64 * 3.
    expect(r.errors.map((e) => [e.name, e.span])).toEqual([["f", { start: 0, end: 194 }]]);
  });

  l3("too deep: the error runs from the name to where the limit was hit, and scanning goes on from there", () => {
    const text = `f(${"[".repeat(65)}1${"]".repeat(65)}) g(2)`;
    const r = parseToolCalls(text);
    expect(r.errors.map((e) => [e.name, e.span])).toEqual([["f", { start: 0, end: 66 }]]);
    expect(r.calls.map((c) => [c.name, c.args])).toEqual([["g", [2]]]);
  });

  l2("code fences: indented fence lines count; blocks of only calls are cut whole, the others stay", () => {
    expect(parseToolCalls('  ```python\n\tget_weather(city="x")\n\t```\nafter').prose).toBe("\nafter");
    expect(parseToolCalls("```\nhello\n```\ntext\n```\nf(1)\n```\nend").prose).toBe("```\nhello\n```\ntext\n\nend");
    expect(parseToolCalls("```\nf(1)\n```\n```\ng(2)\n```").prose).toBe("\n");
    expect(parseToolCalls("g(0)\n```\nf(1)\n```").prose).toBe("\n");
    expect(parseToolCalls("```\nf(1)\n```\ng(2)").prose).toBe("\n");
  });

  l2("code fences: a block is cut only when whole calls are all it holds", () => {
    // A call on the opening fence line is not inside the block.
    expect(parseToolCalls("```f(1)\n```").prose).toBe("```\n```");
    // A call whose string runs past the next fence line is not inside that block either.
    expect(parseToolCalls('```\nf("a\n```\nb")\n```').prose).toBe("```\n\n```");
    // A block of prose after the last call stays, whole.
    expect(parseToolCalls("f(1)\n```\nhello\n```").prose).toBe("\n```\nhello\n```");
  });

  l2("code fences: a block with no call in it (empty, or only whitespace) stays in the prose", () => {
    expect(parseToolCalls("f(1)\n```\n```").prose).toBe("\n```\n```");
    expect(parseToolCalls("f(1)\n```\n \t\n```\ng(2)").prose).toBe("\n```\n \t\n```\n");
    expect(parseToolCalls("```\n```\n```\ng(2)\n```").prose).toBe("```\n```\n");
  });

  l2("code fences: a line feed then a lone carriage return are two line breaks, so the fence line after them still counts", () => {
    expect(parseToolCalls("```\nf(1)\n\r```").prose).toBe("");
    expect(parseToolCalls("```\r\rf(1)\r\n\r```\nx").prose).toBe("\nx");
  });

  l2("code fences: a broken marker that goes wrong at a fence line's first backtick lies outside that line: the block is still cut", () => {
    // Just before the block: the marker goes wrong at the opening fence line (a separator was due).
    const before = parseToolCalls('TOOL_CALL: {"name": "f"\n```\ng(1)\n```');
    expect(before.calls.map((c) => c.name)).toEqual(["g"]);
    expect(before.errors.map((e) => [e.name, e.span.start])).toEqual([[null, 0]]);
    expect(before.prose, "the block after the broken marker holds only g(1): cut whole").not.toContain("`");
    expect(before.prose.trim()).toBe("");
    // Inside the block: it goes wrong at the closing fence line, so it lies wholly between the two.
    const inside = parseToolCalls('```\nTOOL_CALL: {"name": "f"\n```\nafter');
    expect(inside.calls).toEqual([]);
    expect(inside.errors.map((e) => [e.name, e.span.start])).toEqual([[null, 4]]);
    expect(inside.prose).toBe("\nafter");
  });

  l2("a pythonic list may hold whitespace, line breaks too, right after its [ and before its ]", () => {
    const r = parseToolCalls("[ a(1) ] and [\n  b(2),\n  c(3)\n] end");
    expect(r.calls.map((c) => [c.name, c.syntax])).toEqual([
      ["a", "list"],
      ["b", "list"],
      ["c", "list"],
    ]);
    expect(r.prose).toBe(" and  end");
  });

  l2("whitespace is allowed before an object's colon and before a comma or closing bracket (JSON written with spaces works)", () => {
    expect(one('f({a : 1, "b"\t：2 , c\n:[1 ,"x" ,] }, [ {} , [] ])').args).toEqual([{ a: 1, b: 2, c: [1, "x"] }, [{}, []]]);
    const marker = parseToolCalls('TOOL_CALL: {"name" : "f" , "arguments" : {"x" : [1 , 2] } }');
    expect(marker.calls.map((c) => [c.name, c.kwargs, c.syntax])).toEqual([["f", { x: [1, 2] }, "marker"]]);
    expect(marker.prose).toBe("");
  });

  l2("a key without its colon or an item without its separator makes the list invalid: prose, not a parse error", () => {
    expect(one('f({"a": ["x", 1]})').args).toEqual([{ a: ["x", 1] }]);
    for (const text of ["f({a =1}) x", "f({a(1): 2}) x", 'f({"a" 1}) x', 'f(["a"x]) y', "f([[1] 2]) y"]) nothing(text);
  });

  l2("a bad \\x or \\u escape goes wrong at its wrong digit even when the text ends right after it: prose, not a truncated call", () => {
    for (const text of ['f("\\xZ', 'f("\\x4Z', 'f("\\u12G', 'f(a="\\uZ']) nothing(text);
    // Too few digits, all of them hex, and then the end of the text: the model was cut off.
    const cut = parseToolCalls('f("\\x4');
    expect(cut.calls).toEqual([]);
    expect(cut.errors.map((e) => [e.name, e.span])).toEqual([["f", { start: 0, end: 6 }]]);
  });
});

describe("2. The whitelist: createRegistry", () => {
  const tool = (name: unknown) => ({ name: name as string, params: [], run: () => "ran" });

  l2("createRegistry throws an Error for a tool name that is not a (primitive) string", () => {
    expect(createRegistry([tool("calc")]).names(), "a primitive string is a name").toEqual(["calc"]);
    for (const name of [42, undefined, null, ["calc"], new String("calc")]) {
      expect(() => createRegistry([tool(name)]), `rule: only a primitive string is a name: ${String(name)}`).toThrow(Error);
    }
  });

  l2("lookup of anything that is not a string is undefined, never a throw", () => {
    const calc = tool("calc");
    const registry = createRegistry([calc]);
    expect(registry.lookup("calc"), "a string is looked up").toBe(calc);
    for (const name of [42, undefined, null, {}, ["calc"], new String("calc")]) {
      expect(() => registry.lookup(name as string), `rule: lookup never throws: ${String(name)}`).not.toThrow();
      expect(registry.lookup(name as string), `rule: lookup of a non-string is undefined: ${String(name)}`).toBeUndefined();
    }
  });
});

describe("3. Calls that cannot be read: parse errors", () => {
  l2("a broken marker: a blank name, null arguments or non-object arguments are errors spanning the whole marker", () => {
    for (const marker of ['TOOL_CALL: {"name": "  "}', 'TOOL_CALL: {"name": "f", "arguments": null}', 'TOOL_CALL: {"name": "f", "arguments": [1]}']) {
      const r = parseToolCalls(`${marker} tail`);
      expect(r.calls).toEqual([]);
      expect(r.errors.map((e) => [e.name, e.span])).toEqual([[null, { start: 0, end: marker.length }]]);
      expect(r.prose).toBe(" tail");
    }
  });

  l2("nothing inside a broken marker is read as a call", () => {
    const r = parseToolCalls('TOOL_CALL: {"name": "", "arguments": {"q": "h(1)"}}');
    expect(r.calls).toEqual([]);
    expect(r.errors).toHaveLength(1);
  });
});

describe("4. Dispatch", () => {
  l2("results are sorted by position: a parse error before a call comes first", () => {
    const ok = spyTool("ok", optionalParams("x"));
    const r = dispatch('TOOL_CALL: {"name": 1}\nthen ok(2)', createRegistry([ok]));
    expect(r.results.map((x) => [x.call?.name ?? null, x.ok, x.error?.code])).toEqual([
      [null, false, "parse_error"],
      ["ok", true, undefined],
    ]);
  });

  l2("a tool receives its bound arguments as plain data: own, enumerable, writable, configurable keys", () => {
    const ok = spyTool("ok", optionalParams("x", "y"));
    dispatch("ok([1], y={z: 2})", createRegistry([ok]));
    expect(ok.calls).toHaveLength(1);
    const plain = (value: Value) => ({ value, enumerable: true, writable: true, configurable: true });
    expect(Object.getOwnPropertyDescriptors(ok.calls[0])).toEqual({ x: plain([1]), y: plain({ z: 2 }) });
  });
});

describe("5. The safe calculator: calculate and calculateTool", () => {
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

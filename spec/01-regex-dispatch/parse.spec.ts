// Kata 1, tasks 1, 3 and 6 of the README: finding calls, calls that cannot be read, speed.
import { describe, expect } from "vitest";
import { parseToolCalls, type Value } from "@impl/01-regex-dispatch";
import { l1, l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";
import { brief, expectLinear, onlyCall, sliceOf } from "./helpers.ts";
import { objectOf } from "./arbitraries.ts";

const only = onlyCall;
/** The calls of `text`, as [name, args, kwargs]. */
const calls = (text: string) => parseToolCalls(text).calls.map((c) => [c.name, c.args, c.kwargs]);
/** `text` holds no call and no error, and comes back as the prose. */
const prose = (text: string, rule?: string) =>
  expect(parseToolCalls(text), rule === undefined ? JSON.stringify(text) : `${rule}: ${JSON.stringify(text)}`).toEqual({ calls: [], errors: [], prose: text });

describe("1. Finding calls: parseToolCalls", () => {
  describe("formats", () => {
    l1("a call with positional arguments", () => {
      const call = only(`get_weather("北京", "今天")`);
      expect(brief(call)).toEqual({ name: "get_weather", args: ["北京", "今天"], kwargs: {} });
      expect(call.syntax).toBe("call");
    });

    l1("a call with keyword arguments", () => {
      expect(brief(only(`get_weather(city="北京", date="today")`))).toEqual({
        name: "get_weather", args: [], kwargs: { city: "北京", date: "today" },
      });
    });

    l1("positional and keyword arguments mixed, spaces around '=' and a trailing comma", () => {
      expect(brief(only(`search("tea", limit = 3, lang="zh",)`))).toEqual({
        name: "search", args: ["tea"], kwargs: { limit: 3, lang: "zh" },
      });
    }, { core: true });

    l1("a call with no arguments", () => {
      expect(brief(only("Let me look: list_files() now."))).toEqual({ name: "list_files", args: [], kwargs: {} });
    });

    l1("dotted and namespaced names, as BFCL writes them", () => {
      expect(only("math.factorial(number=5)").name).toBe("math.factorial");
      expect(only("a.b_2.c(1)").name).toBe("a.b_2.c");
    });

    l1("a pythonic list of calls", () => {
      const text = `Here: [a(x=1), b(y="s")] done`;
      const result = parseToolCalls(text);
      expect(result.calls.map(brief)).toEqual([
        { name: "a", args: [], kwargs: { x: 1 } },
        { name: "b", args: [], kwargs: { y: "s" } },
      ]);
      expect(result.calls.map((c) => c.syntax)).toEqual(["list", "list"]);
      expect(result.calls.map((c) => sliceOf(text, c.span))).toEqual(["a(x=1)", `b(y="s")`]);
      expect(result.prose).toBe("Here:  done");
    });

    l1("a TOOL_CALL marker line", () => {
      const text = `I'll compute it.\nTOOL_CALL: {"name": "math.factorial", "arguments": {"number": 5}}\nDone.`;
      const result = parseToolCalls(text);
      expect(result.calls.map(brief)).toEqual([{ name: "math.factorial", args: [], kwargs: { number: 5 } }]);
      expect(result.calls[0].syntax).toBe("marker");
      expect(sliceOf(text, result.calls[0].span)).toBe(`TOOL_CALL: {"name": "math.factorial", "arguments": {"number": 5}}`);
      expect(result.prose).toBe("I'll compute it.\n\nDone.");
    });

    l2("a marker without arguments has empty kwargs; a full-width colon works too", () => {
      expect(brief(only(`TOOL_CALL：{"name": "now"}`))).toEqual({ name: "now", args: [], kwargs: {} });
      expect(brief(only(`TOOL_CALL :\t{“name”：“天气”，“arguments”：{“城市”：“北京”}}`))).toEqual({
        name: "天气", args: [], kwargs: { 城市: "北京" },
      });
    });

    l2("TOOL_CALL not followed by ':' and '{' is prose", () => {
      const text = "TOOL_CALL is how I call tools. TOOL_CALL: none needed. ping()";
      const result = parseToolCalls(text);
      expect(result.calls.map((c) => c.name)).toEqual(["ping"]);
      expect(result.errors).toEqual([]);
    });

    l1("calls inside ```tool_code and ```python fences; a call-only fence leaves the prose", () => {
      for (const info of ["tool_code", "python"]) {
        const text = `Checking.\n\`\`\`${info}\nget_weather(city="Paris")\n\`\`\`\nBack soon.`;
        const result = parseToolCalls(text);
        expect(result.calls.map(brief)).toEqual([{ name: "get_weather", args: [], kwargs: { city: "Paris" } }]);
        expect(result.prose).toBe("Checking.\n\nBack soon.");
      }
    });

    l2("a fence that holds more than calls stays in the prose, its calls are still found", () => {
      const text = "```python\nx = 1\nshow(x)\n```";
      const result = parseToolCalls(text);
      expect(result.calls.map(brief)).toEqual([{ name: "show", args: ["x"], kwargs: {} }]);
      expect(result.prose).toBe("```python\nx = 1\n\n```");
    });

    l2("full-width punctuation as delimiters: （ ） ， “ ” ：", () => {
      expect(brief(only(`get_weather（“北京”，date=“今天”，opts={“unit”：“c”}）`))).toEqual({
        name: "get_weather", args: ["北京"], kwargs: { date: "今天", opts: { unit: "c" } },
      });
    });

    l2("full-width and ASCII delimiters mixed in one call", () => {
      expect(brief(only(`get_weather（city=“北京”，date="today")`))).toEqual({
        name: "get_weather", args: [], kwargs: { city: "北京", date: "today" },
      });
    });

    l2("a keyword named in Chinese", () => {
      expect(brief(only(`weather(城市="北京")`))).toEqual({
        name: "weather", args: [], kwargs: { 城市: "北京" },
      });
    });
  });

  describe("prose around calls", () => {
    l1("no call: nothing found and the prose is the input itself", () => {
      for (const text of ["Hello there.", "", "The weather is fine (mostly).", "注意（括号）里的内容"]) {
        const result = parseToolCalls(text);
        expect(result).toEqual({ calls: [], errors: [], prose: text });
        expect(result.prose).toBe(text);
      }
    }, { core: true });

    l1("prose before and after a call; the span is the call itself", () => {
      const text = `Sure! get_weather(city="Oslo") Then I will answer.`;
      const call = only(text);
      expect(sliceOf(text, call.span)).toBe(`get_weather(city="Oslo")`);
      expect(parseToolCalls(text).prose).toBe("Sure!  Then I will answer.");
    });

    l1("a call mid-sentence does not swallow the prose after it", () => {
      const text = "I will call f(1) and then (maybe) g(2), ok?";
      const result = parseToolCalls(text);
      expect(result.calls.map(brief)).toEqual([
        { name: "f", args: [1], kwargs: {} },
        { name: "g", args: [2], kwargs: {} },
      ]);
      expect(result.prose).toBe("I will call  and then (maybe) , ok?");
    });

    l1("several calls in one reply: all of them, in order, whatever the format", () => {
      const text = `First a(1); then\nTOOL_CALL: {"name": "b", "arguments": {"k": 2}}\nand [c(), d(z=None)] and e("x").`;
      const result = parseToolCalls(text);
      expect(result.calls.map((c) => c.name)).toEqual(["a", "b", "c", "d", "e"]);
      expect(result.calls.map((c) => c.syntax)).toEqual(["call", "marker", "list", "list", "call"]);
      const starts = result.calls.map((c) => c.span.start);
      expect([...starts].sort((x, y) => x - y)).toEqual(starts);
    });
  });

  describe("the rule that tells a call from prose", () => {
    l2("prose with parentheses is not a call", () => {
      for (const text of [
        "the result (approx.) is 3",
        "注意（括号）",
        "f (x) is a function",
        "(see above)",
        "e.g.(this)",
        "3f(x) and 2(3)",
        "an empty pair () here",
        "note...(x)",
      ]) {
        expect(parseToolCalls(text), text).toEqual({ calls: [], errors: [], prose: text });
      }
    });

    l2("the other side of the rule: a name glued to '(' or '（' is a call", () => {
      expect(only("f(x) is a function").name).toBe("f");
      expect(only("结果是approx(3)").name).toBe("approx");
      expect(only("注意note（括号）").name).toBe("note");
      expect(only(`"quoted"f(1)`).name).toBe("f");
    });

    l2("a name is read as a whole word: abcf(x) is a call to abcf, not f", () => {
      expect(only("abcf(x)").name).toBe("abcf");
      expect(only("x.y_z(1)").name).toBe("x.y_z");
    });

    l2("a complete but invalid argument list is prose, not an error", () => {
      for (const text of [`see note(a "b") here`, "sum(a b = c)", "f(x == 1)", `g("a" "b")`, "h(,)", `k(x=1, x=2)`]) {
        expect(parseToolCalls(text), text).toEqual({ calls: [], errors: [], prose: text });
      }
    });

    l2("scanning goes on where an argument list went wrong: a call inside it is still found", () => {
      const result = parseToolCalls(`print(get_weather(city="x"))`);
      expect(result.calls.map(brief)).toEqual([{ name: "get_weather", args: [], kwargs: { city: "x" } }]);
      expect(result.prose).toBe("print()");
    });

    l2("a list holding something else is no list: its calls are found one by one", () => {
      const text = "[a(1), see above]";
      const result = parseToolCalls(text);
      expect(result.calls.map((c) => [c.name, c.syntax])).toEqual([["a", "call"]]);
      expect(result.prose).toBe("[, see above]");
    });
  });

  describe("argument literals", () => {
    l2("strings that contain ( ) [ ] { } , \" and line breaks", () => {
      expect(brief(only(`f("a)b", 'c(d', "[x]{y}", "1, 2", 'say "hi"', "line1\nline2")`)).args).toEqual([
        "a)b", "c(d", "[x]{y}", "1, 2", `say "hi"`, "line1\nline2",
      ]);
    });

    l2("nested parentheses: a call ends at its own closing parenthesis, not at one inside a string", () => {
      const result = parseToolCalls(`f("(a)", "b)", ["(c"]) then g(1)`);
      expect(result.calls.map(brief)).toEqual([
        { name: "f", args: ["(a)", "b)", ["(c"]], kwargs: {} },
        { name: "g", args: [1], kwargs: {} },
      ]);
    });

    l2("quoted commas do not split arguments", () => {
      expect(brief(only(`f("a, b", 'c,d', k="x，y, z")`))).toEqual({
        name: "f", args: ["a, b", "c,d"], kwargs: { k: "x，y, z" },
      });
    });

    l2("double- and single-quoted strings with escapes", () => {
      const call = only(String.raw`f("a\"b", 'it\'s', "tab\there\nnl", "\\", "\u00e9\u{1F600}\x41", "\q\(")`);
      expect(call.args).toEqual([`a"b`, "it's", "tab\there\nnl", "\\", "é😀A", "q("]);
    });

    l2("numbers: integers, negatives, decimals, exponents", () => {
      expect(only("f(0, 42, -7, 3.25, -0.5, .5, 1e3, 2.5E-2, +8, 007)").args).toEqual([
        0, 42, -7, 3.25, -0.5, 0.5, 1000, 0.025, 8, 7,
      ]);
    });

    l2("true/false/null and Python True/False/None", () => {
      expect(only("f(true, false, null, True, False, None)").args).toEqual([true, false, null, true, false, null]);
    });

    l2("nested arrays and objects, quoted and bare keys, trailing commas", () => {
      expect(only(`f([1, [2, [3, "x"]],], {"a": {"b": [true, None]}, c: 'd',})`).args).toEqual([
        [1, [2, [3, "x"]]],
        { a: { b: [true, null] }, c: "d" },
      ]);
    });

    l2("bare words are strings, trimmed; words that look like numbers or literals are not", () => {
      expect(brief(only("f(Beijing, q = New York , day=2024-05-01, flag=TRUE, n=NaN)"))).toEqual({
        name: "f", args: ["Beijing"], kwargs: { q: "New York", day: "2024-05-01", flag: "TRUE", n: "NaN" },
      });
    });

    l3("keys named __proto__ become own properties and pollute nothing", () => {
      const call = only(`f(__proto__={"__proto__": {"polluted": 1}}, o={constructor: 1})`);
      expect(Object.keys(call.kwargs)).toEqual(["__proto__", "o"]);
      expect(call.kwargs).toEqual(objectOf([["__proto__", objectOf([["__proto__", objectOf([["polluted", 1]])]])], ["o", { constructor: 1 }]]));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  l2("a name is identifiers joined by single dots: no empty segment, no segment starting with a digit", () => {
    expect(calls("a..b(1) and .c(2) and x.0a(3) y.9b(4) 0c(5)")).toEqual([]);
    expect(calls("m.a0(1) n._9(2)")).toEqual([
      ["m.a0", [1], {}],
      ["n._9", [2], {}],
    ]);
  });

  l2("whitespace includes \\r and U+3000; a bare word ends at a line break", () => {
    expect(brief(only("f(1,\r\n\u30002)"))).toEqual({ name: "f", args: [1, 2], kwargs: {} });
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
    expect(only('f("\\b\\f\\v\\0", "\\u{10FFFF}")').args).toEqual(["\b\f\v\0", "\u{10FFFF}"]);
    expect(calls('f("\\u{110000}")')).toEqual([]);
    expect(calls('f("\\u{0000410")')).toEqual([]);
    expect(calls('f("\\u{00000041}")')).toEqual([]);
  });

  l2("\\u{...} holds 1 to 6 hex digits: 6 read, 7 make the list invalid even with the brace", () => {
    expect(only('f("\\u{000041}", "\\u{1}")').args).toEqual(["A", "\u0001"]);
    prose('f("\\u{0000041}") then');
  });

  l2("an empty argument is empty even with whitespace in it: f(1, , 2) and f( , ) are prose", () => {
    expect(only("f(1 , 2 ,)").args).toEqual([1, 2]);
    for (const text of ["f(1, , 2)", "f( , )", "f(a=1,\u3000,b=2)", "f(\n,\n)"]) prose(text);
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
    for (const text of ['f("\\xZZ") then', 'f("\\xZ1") then', 'f("\\x4g") then', 'f("\\xg4") then']) prose(text);
  });

  l2("bare words: a number only when the whole word has the documented shape and is finite", () => {
    expect(only("f(.25, 1.e2, -1.5e-3, .55)").args).toEqual([0.25, 100, -0.0015, 0.55]);
    expect(only("f(0x10, 0b1, 1e999, Infinity, 1e)").args).toEqual(["0x10", "0b1", "1e999", "Infinity", "1e"]);
  });

  l2("objects: bare keys stop at ：, a key needs : or ： after it, and a key is never empty", () => {
    expect(only("f({a：1, b: 2})").args).toEqual([{ a: 1, b: 2 }]);
    expect(calls("f({a =1})")).toEqual([]);
    expect(calls("f({: 1})")).toEqual([]);
    expect(calls("f(=1)")).toEqual([]);
  });

  l2("arrays and objects: items are separated by commas only", () => {
    expect(only('f(["a", "b"], {x: 1, y: [2, 3]})').args).toEqual([["a", "b"], { x: 1, y: [2, 3] }]);
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
    prose('f("h(1)", (2))');
  });

  l2("TOOL_CALL: tabs before the colon; without a colon it is prose; another word with a colon is prose", () => {
    expect(parseToolCalls('TOOL_CALL\t: {"name": "f"}').calls.map((c) => [c.name, c.syntax])).toEqual([["f", "marker"]]);
    prose('TOOL_CALL {"name": "f"}');
    prose('TOOL_CALL x{"name": "f"}');
    prose('note: {"a": 1}');
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
    expect(only('f({a : 1, "b"\t：2 , c\n:[1 ,"x" ,] }, [ {} , [] ])').args).toEqual([{ a: 1, b: 2, c: [1, "x"] }, [{}, []]]);
    const marker = parseToolCalls('TOOL_CALL: {"name" : "f" , "arguments" : {"x" : [1 , 2] } }');
    expect(marker.calls.map((c) => [c.name, c.kwargs, c.syntax])).toEqual([["f", { x: [1, 2] }, "marker"]]);
    expect(marker.prose).toBe("");
  });

  l2("a key without its colon or an item without its separator makes the list invalid: prose, not a parse error", () => {
    expect(only('f({"a": ["x", 1]})').args).toEqual([{ a: ["x", 1] }]);
    for (const text of ["f({a =1}) x", "f({a(1): 2}) x", 'f({"a" 1}) x', 'f(["a"x]) y', "f([[1] 2]) y"]) prose(text);
  });

  l2("a bad \\x or \\u escape goes wrong at its wrong digit even when the text ends right after it: prose, not a truncated call", () => {
    for (const text of ['f("\\xZ', 'f("\\x4Z', 'f("\\u12G', 'f(a="\\uZ']) prose(text);
    // Too few digits, all of them hex, and then the end of the text: the model was cut off.
    const cut = parseToolCalls('f("\\x4');
    expect(cut.calls).toEqual([]);
    expect(cut.errors.map((e) => [e.name, e.span])).toEqual([["f", { start: 0, end: 6 }]]);
  });
});

describe("1. Finding calls: whitespace, quotes, and where reading stops", () => {
  l2("f( ) has no arguments: whitespace alone between the parentheses is an empty list", () => {
    for (const text of ["f( )", "f(\t\n)", "f(\u3000\r\n )"]) {
      expect(brief(only(text)), `rule: whitespace alone is no argument: ${JSON.stringify(text)}`).toEqual({ name: "f", args: [], kwargs: {} });
    }
    prose("f( ,)", "rule: whitespace before a comma is an empty argument");
  });

  l2("whitespace is space, tab, \\n, \\r and U+3000 only: NBSP, VT, FF and U+2028 are ordinary characters", () => {
    expect(only("f(\u00a0)").args, "rule: NBSP is not whitespace, it is a bare word").toEqual(["\u00a0"]);
    expect(only("f( a\u2028b )").args, "rule: U+2028 is no line break, it stays in the bare word").toEqual(["a\u2028b"]);
    expect(only("f(\v1\f, 2\u2029)").args, "rule: VT, FF and U+2029 are not trimmed").toEqual(["\v1\f", "2\u2029"]);
    expect(only("f(\t1 ,\u3000 2\r\n)").args, "rule: space, tab, \\r, \\n and U+3000 are whitespace").toEqual([1, 2]);
  });

  l2("only the listed quotes and brackets are special: ‘ ’ ` 【 】 ［ ］ are ordinary characters", () => {
    expect(only("f(‘a’, 【b】, ［c］, `d`)").args, "rule: these are bare-word characters").toEqual(["‘a’", "【b】", "［c］", "`d`"]);
    expect(only("f(【k】=1)").kwargs, "rule: 【 】 may be part of a keyword").toEqual({ "【k】": 1 });
  });

  l2("a string ends only at its own closing quote: “ is closed by ” and never by \"", () => {
    expect(only('f(“a"b”)').args, "rule: a \" inside “...” is an ordinary character").toEqual(['a"b']);
    const result = parseToolCalls('f(“abc")');
    expect(result.calls, "rule: “abc\" never closes: no call").toEqual([]);
    expect(result.errors.map((e) => [e.name, e.span]), "rule: “abc\" at the end of the text is a truncated call").toEqual([["f", { start: 0, end: 8 }]]);
  });

  l2("a bare word fails at its first forbidden character: f(a \"b at the end of the text is prose, not a truncated call", () => {
    prose('see f(a "b', "rule: the bare word fails at the quote, before the text ends");
    prose("f(x (y", "rule: the bare word fails at the parenthesis, before the text ends");
    const result = parseToolCalls('print(get_weather(city="x"');
    expect(result.errors.map((e) => [e.name, e.span]), "rule: print's bare word fails at '(': the truncated call is get_weather's").toEqual([["get_weather", { start: 6, end: 26 }]]);
  });

  l2("where scanning goes on after a bad escape, a repeated keyword, an empty argument or a missing comma", () => {
    const names = (text: string) => parseToolCalls(text).calls.map((c) => c.name);
    expect(names('f("\\xZZ g(1)")'), "rule: a bad escape goes wrong at its backslash").toEqual(["g"]);
    expect(names('f(k=1, k="g(2)")'), "rule: a repeated keyword goes wrong at its second key").toEqual(["g"]);
    expect(names('f(1,, "g(3)")'), "rule: an empty argument goes wrong at its comma").toEqual(["g"]);
    expect(names('f("a" "g(4)")'), "rule: a missing comma goes wrong at the character found instead").toEqual(["g"]);
    expect(names("f({a(1): 2})"), "rule: a bare key not followed by ':' goes wrong at that character").toEqual([]);
    expect(names("f(a(1): 2)"), "rule: a bare word is read again from its start").toEqual(["a"]);
    prose('f(a=1, a="x', "rule: a repeated keyword is wrong before the text ends");
  });

  l2("empty arrays and objects are values; an empty item makes the list invalid", () => {
    expect(only("f([], {}, [ ], {\t})").args, "rule: [] and {} are empty").toEqual([[], {}, [], {}]);
    for (const text of ["f([1,,2])", "f([,])", "f({,})", "f({a:})", "f(x={a: 1,,})"]) prose(text, "rule: an empty item is invalid");
  });

  l2("a bare word that is a number is Number(word): -0 is -0", () => {
    expect(Object.is(only("f(-0)").args[0], -0), "rule: f(-0) gives -0").toBe(true);
    expect(Object.is(only("f(+0.0)").args[0], 0), "rule: f(+0.0) gives 0").toBe(true);
  });

  l2("a pythonic list needs nothing before its '[', and takes ， between its calls", () => {
    const text = "arr[f(1)] and [a(2)，b(3)]";
    const result = parseToolCalls(text);
    expect(result.calls.map((c) => [c.name, c.syntax]), "rule: both are lists").toEqual([["f", "list"], ["a", "list"], ["b", "list"]]);
    expect(result.prose, "rule: the lists are cut whole").toBe("arr and ");
  });

  l2("TOOL_CALL need not start a line, and it is a whole word", () => {
    const text = 'Sure. TOOL_CALL: {"name": "f"} done';
    expect(parseToolCalls(text).calls.map((c) => [c.name, c.syntax, sliceOf(text, c.span)]), "rule: a marker mid-sentence")
      .toEqual([["f", "marker", 'TOOL_CALL: {"name": "f"}']]);
    for (const text of ['MY_TOOL_CALL: {"name": "f"}', 'TOOL_CALLS: {"name": "f"}', 'a.TOOL_CALL: {"name": "f"}', 'TOOL_CALL2: {"name": "f"}']) {
      prose(text, "rule: TOOL_CALL is read as a whole word");
    }
  });

  l2("only spaces or tabs around the marker's colon: a line break before ':' or '{' makes it prose", () => {
    expect(parseToolCalls('TOOL_CALL \t:\t {"name": "f"}').calls.map((c) => c.name), "rule: spaces and tabs are allowed").toEqual(["f"]);
    for (const text of ['TOOL_CALL:\n{"name": "f"}', 'TOOL_CALL\n: {"name": "f"}', 'TOOL_CALL:\r{"name": "f"}', 'TOOL_CALL:\u3000{"name": "f"}']) {
      prose(text, "rule: only spaces and tabs");
    }
  });

  l2("a marker's name is kept as written, and keys other than name and arguments are ignored", () => {
    const call = only('TOOL_CALL: {"id": "call_1", "name": " Get_Weather ", "type": "function", "arguments": {"city": "Oslo"}}');
    expect(brief(call), "rule: the name is not trimmed or lower-cased; id and type are ignored").toEqual({
      name: " Get_Weather ", args: [], kwargs: { city: "Oslo" },
    });
  });

  l2("a marker's name is blank when trim() leaves nothing, NBSP included", () => {
    for (const name of ["", " \t", "\u00a0", "\u2028 "]) {
      const result = parseToolCalls(`TOOL_CALL: {"name": "${name}"}`);
      expect([result.calls, result.errors.length], `rule: a blank name is a broken marker: ${JSON.stringify(name)}`).toEqual([[], 1]);
    }
    expect(only('TOOL_CALL: {"name": "f\u00a0g"}').name, "rule: a name with a character trim() keeps is not blank").toBe("f\u00a0g");
  });

  l3("a marker's own { } is a nesting level: its arguments may nest 62 levels more, not 63", () => {
    const marker = (n: number) => `TOOL_CALL: {"name": "f", "arguments": {"a": ${"[".repeat(n)}1${"]".repeat(n)}}}`;
    expect(parseToolCalls(marker(62)).calls.map((c) => c.name), "rule: 1 + 1 + 62 = 64 levels are fine").toEqual(["f"]);
    const deep = parseToolCalls(marker(63));
    expect(deep.calls, "rule: 65 levels are refused").toEqual([]);
    expect(deep.errors.map((e) => e.name), "rule: too deep in a marker is a parse error with a null name").toEqual([null]);
  });

  l2("code fences: a block that holds only a parse error (a broken marker) is cut whole too", () => {
    const text = 'Calling:\n```\nTOOL_CALL: {"name": 42}\n```\nafter';
    const result = parseToolCalls(text);
    expect(result.errors, "rule: the broken marker is an error").toHaveLength(1);
    expect(result.prose, "rule: what is cut from the prose anyway counts, errors included").toBe("Calling:\n\nafter");
  });

  l2("code fences: lines end at \\n, \\r\\n or a lone \\r, and the line break after the closing fence stays", () => {
    expect(parseToolCalls("a\r\n```python\r\nf(1)\r\n```\r\nb").prose, "rule: \\r\\n is one line break").toBe("a\r\n\r\nb");
    expect(parseToolCalls("a\r```\rf(1)\r```\rb").prose, "rule: a lone \\r ends a line").toBe("a\r\rb");
  });

  l2("code fences: any text may follow the backticks of the closing line; an unclosed fence and ~~~ fences cut nothing", () => {
    expect(parseToolCalls("```\nf(1)\n```python\nafter").prose, "rule: the next line starting with ``` closes the block").toBe("\nafter");
    expect(parseToolCalls("text\n```tool_code\nf(1)").prose, "rule: an opening line with no closing line opens no block").toBe("text\n```tool_code\n");
    expect(parseToolCalls("~~~\nf(1)\n~~~").prose, "rule: ~~~ is ordinary text").toBe("~~~\n\n~~~");
  });

  l2("code fences: only the kata's whitespace is blank: a block with an NBSP beside its call stays", () => {
    expect(parseToolCalls("```\nf(1)\u00a0\n```").prose, "rule: NBSP is text, not whitespace").toBe("```\n\u00a0\n```");
    expect(parseToolCalls("```\nf(1)\u3000\r\n```").prose, "rule: U+3000 and \\r are whitespace").toBe("");
  });
});

describe("3. Calls that cannot be read: parse errors", () => {
  l2("a call cut off inside a string is an error, never a call", () => {
    const text = `Sure: get_weather(city="北`;
    const result = parseToolCalls(text);
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].name).toBe("get_weather");
    expect(result.errors[0].span).toEqual({ start: 6, end: text.length });
    expect(result.prose).toBe("Sure: ");
  });

  l2("cut off after '(', after a comma, inside an array, an object, an escape or a bare word", () => {
    for (const text of ["f(", "f(1,", "f([1, 2", `f({"a": `, `f({"a"`, String.raw`f("\u00`, "f(x=", "f(Beij", "f(x=1", "f(1, 2   "]) {
      const result = parseToolCalls(text);
      expect(result.calls, text).toEqual([]);
      expect(result.errors.map((e) => [e.name, e.span]), text).toEqual([["f", { start: 0, end: text.length }]]);
    }
  });

  l2("a cut-off list keeps its complete calls; the cut one is an error", () => {
    const text = `[a(x=1), b(y="s`;
    const result = parseToolCalls(text);
    expect(result.calls.map(brief)).toEqual([{ name: "a", args: [], kwargs: { x: 1 } }]);
    expect(result.errors.map((e) => e.name)).toEqual(["b"]);
  });

  l2("a cut-off marker is an error", () => {
    const text = `TOOL_CALL: {"name": "f", "arguments": {"x": [1, 2`;
    const result = parseToolCalls(text);
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0].span).toEqual({ start: 0, end: text.length });
  });

  l2("a marker without a string name, with non-object arguments or a broken object is an error", () => {
    for (const text of [
      `TOOL_CALL: {"arguments": {}}`,
      `TOOL_CALL: {"name": "", "arguments": {}}`,
      `TOOL_CALL: {"name": 42}`,
      `TOOL_CALL: {"name": "f", "arguments": [1]}`,
      `TOOL_CALL: {"name": "f", "arguments": "{}"}`,
      `TOOL_CALL: {"name" "f"}`,
    ]) {
      const result = parseToolCalls(text);
      expect(result.calls, text).toEqual([]);
      expect(result.errors, text).toHaveLength(1);
      expect(result.errors[0].span.start, text).toBe(0);
    }
  });

  l2("a parse error does not hide the calls after it", () => {
    const text = `TOOL_CALL: {"name": 1}\nthen ok(2)`;
    const result = parseToolCalls(text);
    expect(result.errors).toHaveLength(1);
    expect(result.calls.map(brief)).toEqual([{ name: "ok", args: [2], kwargs: {} }]);
  });

  l3("a parse error's message never quotes the text: a secret in broken arguments does not come back", () => {
    const SECRET = "Qz7Xw9Kv2Jm4Hb8N";
    for (const text of [
      `f(token="${SECRET}`,
      `f(${SECRET}`,
      `f(k=[1, {"t": '${SECRET}`,
      `f(${"[".repeat(65)}"${SECRET}"${"]".repeat(65)})`,
      `TOOL_CALL: {"name": "f", "arguments": {"key": ${SECRET} "x"}}`,
      `TOOL_CALL: {"name": "f", "arguments": {"key": "${SECRET}" "x"}}`,
      `TOOL_CALL: {"name": "f", "arguments": "${SECRET}"}`,
      `TOOL_CALL: {"name": ["${SECRET}"]}`,
      `TOOL_CALL: {"name": "f", "arguments": {"key": "\\x${SECRET}"}}`,
      `TOOL_CALL: {"name": "f", "arguments": {"key": "${SECRET}"}`,
    ]) {
      const result = parseToolCalls(text);
      expect(result.errors.length, `a parse error: ${text}`).toBeGreaterThan(0);
      for (const error of result.errors) {
        expect(leakedPieces(error.message, SECRET), `rule: an argument error never quotes the text: ${text} -> ${error.message}`).toEqual([]);
      }
    }
  });

  l3("nesting deeper than 64 levels is refused; 64 levels are fine", () => {
    const fine = only(`f(${"[".repeat(64)}1${"]".repeat(64)})`);
    let value: unknown = fine.args[0];
    for (let depth = 0; depth < 64; depth++) value = (value as unknown[])[0];
    expect(value).toBe(1);

    const result = parseToolCalls(`f(${"[".repeat(65)}1${"]".repeat(65)})`);
    expect(result.calls).toEqual([]);
    expect(result.errors.map((e) => e.name)).toEqual(["f"]);
  });

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

describe("6. Robustness and speed", () => {
  const cases: [string, (n: number) => string][] = [
    ["unbalanced parentheses", (n) => "f(" + "(".repeat(n)],
    ["an endless string", (n) => `f("` + "x".repeat(n)],
    ["nested brackets", (n) => "f(" + "[".repeat(n)],
    ["f( repeated", (n) => "f(".repeat(n >> 1)],
    ["calls whose strings hold calls", (n) => `f("g(", 'h("', `.repeat(Math.ceil(n / 12)).slice(0, n)],
    ["lists that never close", (n) => `[a("${"x".repeat(24)}"), `.repeat(Math.ceil(n / 34)).slice(0, n)],
    ["one long word", (n) => "a".repeat(n)],
    ["a marker with an endless object", (n) => `TOOL_CALL: {"a": [` + "1, ".repeat(n / 3)],
    ["bare words glued to calls, closed once at the end", (n) => "f(x".repeat(Math.ceil(n / 3)).slice(0, n) + ")"],
  ];

  for (const [name, make] of cases) {
    l3(`1 MiB of ${name} takes linear time`, () => {
      expectLinear(make, parseToolCalls);
    });
  }

  // Small sizes: a quadratic implementation must fail here, not hang the run.
  l3("the adversarial cases give the documented answers", () => {
    const size = 16 << 10;
    const truncated = parseToolCalls(`f("` + "x".repeat(size));
    expect(truncated.calls).toEqual([]);
    expect(truncated.errors.map((e) => e.name)).toEqual(["f"]);
    const deep = parseToolCalls(`f(${"[".repeat(size)}`);
    expect(deep.calls).toEqual([]);
    expect(deep.errors.map((e) => e.name)).toEqual(["f"]);
    const many = parseToolCalls("ok(1) ".repeat(size / 8));
    expect(many.calls).toHaveLength(size / 8);
  });
});

// Held-out bank, kata 1, tasks 1, 3 and 6: the same README contract as the visible specs, with
// other examples and other random cases, so that answers hard-coded for the visible examples
// do not carry over. The candidate pack leaves this folder out; `npm run grade -- --bank` runs it.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { parseToolCalls } from "@impl/01-regex-dispatch";
import { l1, l2, l3 } from "../../support/graded.ts";
import { leakedPieces } from "../../support/leaks.ts";
import { brief, expectLinear, onlyCall, sliceOf } from "../helpers.ts";
import { asciiStyle, callFreeProse, keywordCallSpec, objectOf, renderCall, renderList } from "../arbitraries.ts";

const only = onlyCall;

describe("1. Finding calls: parseToolCalls", () => {
  l1("a flight booking with positional and keyword arguments, inside prose", () => {
    const text = `OK, booking now: book_flight("SFO", to="NRT", seats=2) and I will confirm.`;
    const call = only(text);
    expect(brief(call)).toEqual({ name: "book_flight", args: ["SFO"], kwargs: { to: "NRT", seats: 2 } });
    expect(sliceOf(text, call.span)).toBe(`book_flight("SFO", to="NRT", seats=2)`);
    expect(parseToolCalls(text).prose).toBe("OK, booking now:  and I will confirm.");
  });

  l1("a pythonic list of two namespaced calls is cut from the prose whole", () => {
    const text = `Plan: [weather.get(city='Lyon'), clock.now()]. Done`;
    const result = parseToolCalls(text);
    expect(result.calls.map(brief)).toEqual([
      { name: "weather.get", args: [], kwargs: { city: "Lyon" } },
      { name: "clock.now", args: [], kwargs: {} },
    ]);
    expect(result.calls.map((c) => c.syntax)).toEqual(["list", "list"]);
    expect(result.prose).toBe("Plan: . Done");
  });

  l2("a marker written with Python literals and single quotes", () => {
    const text = `TOOL_CALL: {'name': 'lookup', 'arguments': {'q': None, 'exact': True, 'n': -3}}`;
    const call = only(text);
    expect(brief(call)).toEqual({ name: "lookup", args: [], kwargs: { q: null, exact: true, n: -3 } });
    expect(call.syntax).toBe("marker");
    expect(call.span).toEqual({ start: 0, end: text.length });
  });

  l2("an indented fence with two calls and a blank line is cut whole", () => {
    const text = "Hi\n  ```tool_code\nping(1)\n\npong(2)\n  ```\nbye";
    const result = parseToolCalls(text);
    expect(result.calls.map((c) => c.name)).toEqual(["ping", "pong"]);
    expect(result.prose).toBe("Hi\n\nbye");
  });

  l2("escapes: \\x, \\0, \\v, \\u{...}, and an escaped closing full-width quote", () => {
    const call = only(String.raw`f("\x41\0\v", “a\”b”, '\u{1F600}', "\u4e2d")`);
    expect(call.args).toEqual(["A\u0000\u000b", "a”b", "😀", "中"]);
  });

  l2("bare words: numbers only when the whole word is a finite number", () => {
    expect(only("f(-1.5e3, 5., -.25E+2, 1e, 0x10, Infinity, 1e400, 12px, None)").args).toEqual([
      -1500, 5, -25, "1e", "0x10", "Infinity", "1e400", "12px", null,
    ]);
  });

  l2("a repeated object key keeps its last value; keys may be bare or Chinese", () => {
    expect(only(`f({a: 1, a: 2, 名字：“张三”})`).args).toEqual([{ a: 2, 名字: "张三" }]);
  });

  l2("more prose that only looks like calls: a space, a number or a dot before '('", () => {
    for (const text of ["see fig (2)", "1.5(x) is odd", "v2 (beta)", "done.(really)", "（全角）括号", "x.(y)"]) {
      expect(parseToolCalls(text), text).toEqual({ calls: [], errors: [], prose: text });
    }
    expect(only("then _(x)").name).toBe("_");
  });

  l2.property("keyword calls in a fence between prose lines: found, and the fence leaves the prose", () => {
    const safe = { ...asciiStyle, escapeAll: true };
    fc.assert(
      fc.property(fc.array(keywordCallSpec, { minLength: 1, maxLength: 3 }), callFreeProse, callFreeProse, (specs, before, after) => {
        const fence = "```tool_code\n" + specs.map((s) => renderCall(s, safe)).join("\n") + "\n```";
        const text = `${before}\n${fence}\n${after}`;
        const result = parseToolCalls(text);
        expect(result.errors).toEqual([]);
        expect(result.calls.map(brief)).toEqual(specs);
        expect(result.prose).toBe(`${before}\n\n${after}`);
      }),
    );
  });

  l2.property("bare words come back as trimmed strings", () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z -]{0,10}[A-Za-z]$/)
      .filter((w) => !/^(true|false|null|True|False|None)$/.test(w));
    fc.assert(
      fc.property(word, fc.constantFrom("", " ", "  ", "\t"), (w, pad) => {
        expect(only(`lookup(q=${pad}${w}${pad})`).kwargs).toEqual(objectOf([["q", w.trim()]]));
      }),
    );
  });
});

describe("1. Finding calls: whitespace, quotes, and where reading stops", () => {
  l2("only space, tab, line breaks and U+3000 are whitespace, on new inputs", () => {
    expect(only("g(\n)").args, "rule: a line break alone is an empty list").toEqual([]);
    expect(only("g(\u00a0x\u00a0, 1\u2028, \f)").args, "rule: NBSP, U+2028 and FF are bare-word characters").toEqual(["\u00a0x\u00a0", "1\u2028", "\f"]);
  });

  l2("the whole-word rule looks at ASCII only: getWéather(x) calls ather", () => {
    expect(only("getWéather(x)").name, "rule: é is no name character").toBe("ather");
  });

  l2("a marker's name that is a bare word with '(' is a broken marker, and the call inside is read again", () => {
    const text = 'TOOL_CALL: {"name": lookup(q="tea")}';
    const result = parseToolCalls(text);
    expect(result.errors.map((e) => [e.name, e.span.start]), "rule: a broken marker is an error").toEqual([[null, 0]]);
    expect(result.calls.map(brief), "rule: a bare word that fails is read again from its start").toEqual([{ name: "lookup", args: [], kwargs: { q: "tea" } }]);
  });

  l2("a bare word with a quote or a parenthesis is prose even when the text ends after it", () => {
    for (const text of ["note(x 'y", "call me(later (ok", "set(a=b “c"]) {
      expect(parseToolCalls(text), `rule: the bare word fails first: ${text}`).toEqual({ calls: [], errors: [], prose: text });
    }
  });

  l2("a marker in the middle of a line", () => {
    const text = "ok → TOOL_CALL：{\"name\": \"g\"} then";
    const result = parseToolCalls(text);
    expect(result.calls.map((c) => [c.name, c.syntax]), "rule: TOOL_CALL need not start a line").toEqual([["g", "marker"]]);
    expect(result.prose, "rule: the marker is cut").toBe("ok →  then");
  });

  l2("a fence holding only a broken marker is cut whole", () => {
    const text = "ok\n```tool_code\nTOOL_CALL: {\"name\": \"\"}\n```\nend";
    const result = parseToolCalls(text);
    expect(result.errors.map((e) => e.name), "rule: a blank name is a broken marker").toEqual([null]);
    expect(result.prose, "rule: a fence holding only an error is cut whole").toBe("ok\n\nend");
  });
});

describe("3. Calls that cannot be read: parse errors", () => {
  l3("parse errors never quote the text: secrets in cut-off and broken arguments, on new inputs", () => {
    const SECRET = "Xe4Lr9Ud2Oa7Ig5S";
    for (const text of [
      `weather(city="Oslo", key=“${SECRET}`,
      `[a(1), b(${SECRET}`,
      `TOOL_CALL：{“name”：“f”，“arguments”：{“k”：${SECRET}（}}`,
      `TOOL_CALL: {'name': 'f', 'arguments': {'k': '${SECRET}', 'j' 1}}`,
      `TOOL_CALL: {"name": {"v": "${SECRET}"}}`,
    ]) {
      const result = parseToolCalls(text);
      expect(result.errors.length, `a parse error: ${text}`).toBeGreaterThan(0);
      for (const error of result.errors) {
        expect(leakedPieces(error.message, SECRET), `rule: an argument error never quotes the text: ${error.message}`).toEqual([]);
      }
    }
  });


  l2("a marker cut off inside its arguments is an error with a null name", () => {
    const text = `Now:\nTOOL_CALL: {"name": "search", "arguments": {"q": "abc`;
    const result = parseToolCalls(text);
    expect(result.calls).toEqual([]);
    expect(result.errors.map((e) => [e.name, e.span])).toEqual([[null, { start: 5, end: text.length }]]);
    expect(result.prose).toBe("Now:\n");
  });

  l3("objects nested deeper than 64 levels: an error, and scanning goes on to the next call", () => {
    const text = `f(${"{a:".repeat(65)}1${"}".repeat(65)}) g(1)`;
    const result = parseToolCalls(text);
    expect(result.errors.map((e) => e.name)).toEqual(["f"]);
    expect(result.errors[0].span.start).toBe(0);
    expect(result.calls.map(brief)).toEqual([{ name: "g", args: [1], kwargs: {} }]);
    expect(only(`f(${"{a:".repeat(64)}1${"}".repeat(64)})`).name).toBe("f");
  });

  l3.property("a complete call then a cut-off one: the first is a call, the second an error", () => {
    fc.assert(
      fc.property(keywordCallSpec, keywordCallSpec, fc.nat(), (first, second, cutAt) => {
        const whole = renderCall(second, asciiStyle);
        const open = second.name.length + 1;
        const cut = whole.slice(0, open + (cutAt % (whole.length - open)));
        const text = `${renderCall(first, asciiStyle)} then ${cut}`;
        const result = parseToolCalls(text);
        expect(result.calls.map(brief)).toEqual([first]);
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0].span.end).toBe(text.length);
      }),
    );
  });

  l2("a list cut off after its first call keeps that call; the list brackets stay prose", () => {
    const text = `[${renderList([{ name: "a", args: [], kwargs: { x: 1 } }]).slice(1, -1)}, b(`;
    const result = parseToolCalls(text);
    expect(result.calls.map((c) => [c.name, c.syntax])).toEqual([["a", "call"]]);
    expect(result.errors.map((e) => e.name)).toEqual(["b"]);
  });
});

describe("6. Robustness and speed", () => {
  l3("1 MiB of endless full-width strings and repeated markers takes linear time", () => {
    expectLinear((n) => "f(“" + "北".repeat(n), parseToolCalls);
    expectLinear((n) => "TOOL_CALL: {".repeat(Math.ceil(n / 12)).slice(0, n), parseToolCalls);
  });

  l3.property("never throws on text built from call pieces, and spans stay in order inside it", () => {
    const piece = fc.constantFrom("f(", "g.h(", ")", "（", "）", "[", "]", "{", "}", "\"", "'", "“", "”", ",", "，", "=", ":", "TOOL_CALL:", "```", "\n", " ", "x", "1", "\\", "None");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        const result = parseToolCalls(text);
        const spans = [...result.calls.map((c) => c.span), ...result.errors.map((e) => e.span)].sort((a, b) => a.start - b.start);
        let last = 0;
        for (const span of spans) {
          expect(span.start).toBeGreaterThanOrEqual(last);
          expect(span.end).toBeLessThanOrEqual(text.length);
          last = span.end;
        }
        expect(typeof result.prose).toBe("string");
      }),
    );
  });
});

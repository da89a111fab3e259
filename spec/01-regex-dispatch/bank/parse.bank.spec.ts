// Held-out bank, kata 1, tasks 1, 3 and 6: the same README contract as the visible specs, with
// other examples and other random cases, so that answers hard-coded for the visible examples
// do not carry over. The candidate pack leaves this folder out; `npm run grade -- --bank` runs it.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { createRegistry, dispatch, parseToolCalls, type ParseResult, type Value } from "@impl/01-regex-dispatch";
import { l1, l2, l3 } from "../../support/graded.ts";
import { leakedPieces } from "../../support/leaks.ts";
import { brief, expectLinear, onlyCall, sliceOf, spyTool } from "../helpers.ts";
import {
  asciiStyle, callFreeProse, callSpec, fullWidthMix, fullWidthOf, keywordCallSpec, objectOf, recase, renderCall, renderList,
  renderValue, style, toolName, value, type Style,
} from "../arbitraries.ts";

const only = onlyCall;
/** `text` holds nothing: no call, no error, and the prose is the text itself. */
const nothingIn = (text: string, rule: string) =>
  expect(parseToolCalls(text), `${rule}: ${JSON.stringify(text)}`).toEqual({ calls: [], errors: [], prose: text });
/** Where the calls and errors of a parse result start. */
const startsOf = (result: ParseResult) => [...result.calls.map((c) => c.span.start), ...result.errors.map((e) => e.span.start)];
/** A marker's object, `{"name": ..., "arguments": {...}}`, in the given style. */
const markerObject = (name: string, kwargs: Record<string, Value>, st: Style) =>
  renderValue(objectOf([["name", name], ["arguments", kwargs]]), st);

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

describe("1. Finding calls: repeated keywords, fences with lone \\r, a marker's name and its colon", () => {
  l2("a keyword repeated after other arguments, its first value falsy or not, makes the list prose", () => {
    for (const text of [
      "book(seat=0, row=12, seat=14) ok",
      "toggle(on=False, 2, on=True)",
      "set_flag(on=None，on=1）",
      "q(城市=“”， 城市=“上海”)",
      "t(k\t=1,\nk =\u30002)",
      "f(__proto__=1, __proto__=2)",
      'note(text="", text="")',
      'rate(stars=4, stars="fi',
    ]) {
      nothingIn(text, "rule: a keyword given twice makes the list invalid, before its second value is read");
    }
  });

  l2("after a repeated keyword the scan goes on from its second key: a call in its value is read, even a cut-off one", () => {
    expect(parseToolCalls('outer(tag="x", tag="say(hi=1)") done').calls.map(brief), "rule: scanning goes on at the second key")
      .toEqual([{ name: "say", args: [], kwargs: { hi: 1 } }]);
    const cut = 'outer(tag="x", tag="say(hi=1';
    const result = parseToolCalls(cut);
    expect(result.calls, "rule: the outer list is prose, not a truncated call").toEqual([]);
    expect(result.errors.map((e) => [e.name, e.span]), "rule: the call cut off inside the second value is the only error")
      .toEqual([["say", { start: cut.indexOf("say"), end: cut.length }]]);
  });

  l2("not a keyword given twice: the same key inside values, a positional value equal to it, a marker's repeated object key", () => {
    expect(brief(only('f(k={k: 1}, j={k: 2}, "k")')), "rule: only keyword keys count").toEqual({
      name: "f", args: ["k"], kwargs: { k: { k: 1 }, j: { k: 2 } },
    });
    expect(brief(only('TOOL_CALL: {"name": "set", "arguments": {"level": 1, "level": 0}}')), "rule: a repeated object key keeps its last value")
      .toEqual({ name: "set", args: [], kwargs: { level: 0 } });
    expect(only("TOOL_CALL: {'name': 'a', 'name': 'b'}").name, "rule: a repeated object key keeps its last value").toBe("b");
  });

  l2.property("a keyword given twice, in any style, with any values: nothing is read at the call, even cut inside the second value", () => {
    const falsy = fc.constantFrom<Value>(0, false, null, "");
    const withKwargs = callSpec.filter((s) => Object.keys(s.kwargs).length > 0);
    fc.assert(
      fc.property(withKwargs, style, fc.option(falsy, { nil: undefined }), value, fc.nat(), fc.nat(), fc.nat(), callFreeProse,
        (spec, st, firstFalsy, again, pickKey, pickAt, pickCut, before) => {
          const keys = Object.keys(spec.kwargs);
          const key = keys[pickKey % keys.length];
          const kwargs = firstFalsy === undefined ? spec.kwargs : objectOf(keys.map((k) => [k, k === key ? firstFalsy : spec.kwargs[k]]));
          const keyword = (k: string, v: Value) => `${k}${st.space}=${st.space}${renderValue(v, st)}`;
          const parts = [...spec.args.map((v) => renderValue(v, st)), ...keys.map((k) => keyword(k, kwargs[k]))];
          const sep = st.comma + st.space;
          const offset = before.length + 1;
          // Control: without the repeat, the call is read.
          const once = `${before} ${spec.name}${st.open}${parts.join(sep)}${st.close}`;
          expect(parseToolCalls(once).calls.map((c) => [c.span.start, brief(c)])).toEqual([[offset, { ...spec, kwargs }]]);

          const firstAt = spec.args.length + keys.indexOf(key);
          const at = firstAt + 1 + (pickAt % (parts.length - firstAt));
          const head = `${before} ${spec.name}${st.open}${[...parts.slice(0, at), ""].join(sep)}${key}${st.space}`;
          const text = head + [`=${st.space}${renderValue(again, st)}`, ...parts.slice(at)].join(sep) + st.close;
          expect(startsOf(parseToolCalls(text)), `rule: a keyword given twice makes the list prose: ${text}`).not.toContain(offset);
          // Cut anywhere after the second "=": the list went wrong before the text ended.
          const cut = text.slice(0, head.length + 1 + (pickCut % (text.length - head.length)));
          expect(startsOf(parseToolCalls(cut)), `rule: it goes wrong at the second key, not a truncated call: ${cut}`).not.toContain(offset);
        }),
    );
  });

  l2("code fences whose lines end with a lone \\r: cut whole around a marker or calls, kept with prose inside", () => {
    expect(parseToolCalls('Result:\r  ```json\rTOOL_CALL: {"name": "lookup", "arguments": {"id": 7}}\r  ```\rthanks').prose, "rule: a lone \\r ends a fence line")
      .toBe("Result:\r\rthanks");
    expect(parseToolCalls("intro\r\n```tool_code\rsum(1, 2)\n\rprod(3)\r\n```\r\routro").prose, "rule: \\r\\n, \\n and a lone \\r mixed")
      .toBe("intro\r\n\r\routro");
    expect(parseToolCalls("```\rstop()\r```\r").prose, "rule: the lone \\r after the closing fence line stays").toBe("\r");
    expect(parseToolCalls("```\rnote\rping(1)\r```\rend").prose, "rule: a block that holds prose stays").toBe("```\rnote\r\r```\rend");
  });

  l2.property("fences of calls are cut whole whatever each line ends with: \\n, \\r\\n or a lone \\r", () => {
    const br = fc.constantFrom("\n", "\r\n", "\r");
    // Strings escaped: no raw line break (and so no fence line) inside a call.
    const fenceStyle = fc.tuple(style, fullWidthMix).map(([st, mix]) => ({ ...fullWidthOf(st, mix), escapeAll: true }));
    const line = fc.tuple(callSpec, br, fc.option(fc.tuple(fc.constantFrom("", " \t", "\u3000"), br)));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 3 }), fenceStyle, br, br, br, fc.constantFrom("", " ", "\t", "  \t"),
        fc.constantFrom("", "tool_code", "python", "json ", "x y"), callFreeProse, callFreeProse,
        (lines, st, beforeBreak, openBreak, afterBreak, indent, info, before, after) => {
          const body = lines.map(([spec, end, blank]) => renderCall(spec, st) + end + (blank ? blank[0] + blank[1] : "")).join("");
          const text = `${before}${beforeBreak}${indent}\`\`\`${info}${openBreak}${body}${indent}\`\`\`${info}${afterBreak}${after}`;
          const result = parseToolCalls(text);
          expect(result.errors).toEqual([]);
          expect(result.calls.map(brief)).toEqual(lines.map(([spec]) => spec));
          expect(result.prose, "rule: the block is cut from its opening line to the end of its closing line").toBe(`${before}${beforeBreak}${afterBreak}${after}`);
        }),
    );
  });

  l2("a marker's name comes back as written: spaces, U+3000, NBSP, BOM and line breaks around it stay, and so do capitals", () => {
    const wide = 'TOOL_CALL: {"name": "\u3000翻译\u3000", "arguments": {"text": "hi"}}';
    const call = only(wide);
    expect(brief(call), "rule: the name is not trimmed").toEqual({ name: "\u3000翻译\u3000", args: [], kwargs: { text: "hi" } });
    expect(call.span, "rule: the span runs from TOOL_CALL to the closing brace").toEqual({ start: 0, end: wide.length });
    expect(only("ok TOOL_CALL：{“name”：“\tSearch.Web\n”}").name, "rule: raw tab and line feed stay").toBe("\tSearch.Web\n");
    expect(only(String.raw`TOOL_CALL: {'name': '\u00a0math.Sqrt\ufeff', 'arguments': {}}`).name, "rule: escaped NBSP and BOM stay").toBe("\u00a0math.Sqrt\ufeff");
    expect(only('TOOL_CALL: {"name": "weather.now  "}').name, "rule: trailing spaces stay").toBe("weather.now  ");
  });

  l2.property("a marker's name padded with whitespace trim() removes comes back untrimmed, and the registry still finds its tool", () => {
    const pad = fc.constantFrom(" ", "\t", "\n", "\r", "\u3000", "\u00a0", "\ufeff", "\u2028", "\u2029", "\u1680", "\u2003", "\u202f", "\u205f", "\v", "\f");
    const padding = fc.tuple(fc.array(pad, { maxLength: 3 }), fc.array(pad, { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(([a, b, swap]) => (swap ? [b.join(""), a.join("")] : [a.join(""), b.join("")]));
    fc.assert(
      fc.property(keywordCallSpec, toolName, fc.array(fc.boolean()), padding, style, callFreeProse, (spec, name, flips, [left, right], st, before) => {
        const written = `${left}${recase(name, flips)}${right}`;
        const marker = `TOOL_CALL${st.colon} ${markerObject(written, spec.kwargs, st)}`;
        const text = `${before}\n${marker}`;
        const parsed = parseToolCalls(text);
        expect(parsed.calls.map((c) => [c.syntax, brief(c)]), "rule: the name is that string as written").toEqual([["marker", { name: written, args: [], kwargs: spec.kwargs }]]);
        const tool = spyTool(name.toLowerCase(), Object.keys(spec.kwargs).map((k) => ({ name: k, optional: true })));
        const result = dispatch(text, createRegistry([tool]));
        expect(result.results.map((r) => [r.ok, r.call?.name]), "rule: the registry trims and lower-cases").toEqual([[true, written]]);
        expect(tool.calls).toHaveLength(1);
      }),
    );
  });

  l2("a line break or any other whitespace before a marker's colon or its brace makes it prose, on new inputs", () => {
    for (const text of [
      'TOOL_CALL\r\n: {"name": "ping"}',
      'TOOL_CALL \r：{"name": "ping"}',
      'TOOL_CALL\u3000: {"name": "ping"}',
      'TOOL_CALL\u00a0: {"name": "ping"}',
      'go TOOL_CALL\f:{"name": "ping"}',
      'TOOL_CALL: \r\n{"name": "ping"}',
      'TOOL_CALL：\t\n\t{"name": "ping"}',
      'TOOL_CALL:\u2029{"name": "ping"}',
    ]) {
      nothingIn(text, "rule: only spaces and tabs around the marker's colon");
    }
    expect(parseToolCalls('TOOL_CALL\t \t：  \t{"name": "ping"}').calls.map((c) => [c.name, c.syntax]), "rule: spaces and tabs are fine").toEqual([["ping", "marker"]]);
    const text = 'x\nTOOL_CALL : {\n"name": "ping"\n}';
    expect(parseToolCalls(text).calls.map((c) => [c.syntax, c.span]), "rule: a line break before TOOL_CALL or inside the object is fine")
      .toEqual([["marker", { start: 2, end: text.length }]]);
  });

  l2.property("TOOL_CALL with random spacing around its colon is a marker exactly when that spacing is spaces and tabs", () => {
    const blank = fc.array(fc.constantFrom(" ", "\t"), { maxLength: 3 }).map((cs) => cs.join(""));
    const intruder = fc.constantFrom("\n", "\r", "\r\n", "\u3000", "\u00a0", "\v", "\f", "\u2028", "\u2029", "\ufeff", "\u0085", "\u2002");
    // Spaces and tabs, and maybe one other character among them.
    const spacing = fc.tuple(blank, fc.option(intruder, { freq: 2 }), blank).map(([a, bad, b]) => ({ text: a + (bad ?? "") + b, clean: bad === null }));
    fc.assert(
      fc.property(keywordCallSpec, style, spacing, spacing, callFreeProse, callFreeProse, (spec, st, pre, post, before, after) => {
        const prefix = `${before} `;
        const text = `${prefix}TOOL_CALL${pre.text}${st.colon}${post.text}${markerObject(spec.name, spec.kwargs, st)}\n${after}`;
        const result = parseToolCalls(text);
        if (pre.clean && post.clean) {
          expect(result.errors).toEqual([]);
          expect(result.calls.map((c) => [c.syntax, c.span.start, brief(c)])).toEqual([["marker", prefix.length, spec]]);
        } else {
          expect(startsOf(result), `rule: only spaces and tabs: ${JSON.stringify(pre.text + st.colon + post.text)}`).not.toContain(prefix.length);
          // The rest of the text is read as it would be after any other word of prose.
          const twin = parseToolCalls(`${prefix}TOOL_CALX${text.slice(prefix.length + 9)}`);
          expect([result.calls, result.errors], "rule: a TOOL_CALL that is no marker is prose").toEqual([twin.calls, twin.errors]);
        }
      }),
    );
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

describe("1. Finding calls: names, markers and where an argument list goes wrong, on new inputs", () => {
  l2("a name is identifiers joined by single dots: a segment starting with a digit, an empty segment or a dot before the name is no call", () => {
    for (const text of ["0f(x)", "9lives(1)", "a.0b(x)", "m.9(x)", "a..b(x)", ".hidden(x)", "..z(1)", "done.(x)", "v1..2(3)"]) {
      nothingIn(text, "rule: identifiers [A-Za-z_][A-Za-z0-9_]* joined by single dots, read as a whole word");
    }
    expect(only("_a.b_9(x)").name, "rule: _ and digits inside a segment are fine").toBe("_a.b_9");
    expect(only("x9.Z0(1)").name).toBe("x9.Z0");
  });

  l2("TOOL_CALL is one exact, whole word followed by ':' or '：': other cases, longer words and other punctuation are prose", () => {
    for (const text of [
      'TOOL_CALLS: {"name": "f"}',
      'tool_call: {"name": "f"}',
      'Tool_Call：{"name": "f"}',
      'XTOOL_CALL: {"name": "f"}',
      'TOOL_CALL_2: {"name": "f"}',
      'TOOL_CALL.v2: {"name": "f"}',
      'PLAN_STEP: {"name": "f"}',
      'TOOL_CALL={"name": "f"}',
      'TOOL_CALL;{"name": "f"}',
      'TOOL_CALL -> {"name": "f"}',
      'TOOL_CALL {"name": "f"}',
    ]) {
      nothingIn(text, "rule: the word TOOL_CALL, exact case, whole, then ':' or '：'");
    }
    expect(parseToolCalls('ok;TOOL_CALL:{"name": "f"}').calls.map((c) => [c.name, c.syntax]), "rule: ';' before it is not a word character").toEqual([["f", "marker"]]);
  });

  l2("a marker whose name is blank after trim() or whose arguments are not an object is an error over the whole marker", () => {
    for (const object of [
      '{"name": "  "}', '{"name": "\\t\\n"}', "{'name': '\u3000'}", '{"name": "\\u00a0 "}', '{"name": ["f"]}', '{"arguments": {}}',
      '{"name": "f", "arguments": [1]}', '{"name": "f", "arguments": null}', '{"name": "f", "arguments": "x"}',
      '{"name": "f", "arguments": 5}', '{"name": "f", "arguments": true}', '{"name": "f", "arguments": []}',
    ]) {
      const marker = `TOOL_CALL: ${object}`;
      const result = parseToolCalls(`${marker} ok`);
      expect(result.calls, `rule: never a call: ${marker}`).toEqual([]);
      expect(result.errors.map((e) => [e.name, e.span]), `rule: an error with a null name, over the whole marker: ${marker}`)
        .toEqual([[null, { start: 0, end: marker.length }]]);
      expect(result.prose).toBe(" ok");
    }
    expect(only('TOOL_CALL: {"name": "f", "arguments": {}}').kwargs, "rule: an empty object is fine").toEqual({});
    expect(only('TOOL_CALL: {"name": " f"}').kwargs, "rule: absent arguments are {}").toEqual({});
  });

  l2("nothing inside a marker with no usable name is read again as a call", () => {
    const text = 'Plan: TOOL_CALL: {"name": " ", "arguments": {"q": "find(1)", "r": ["g(2)"]}} then';
    const result = parseToolCalls(text);
    expect(result.calls, "rule: the error covers the whole marker").toEqual([]);
    expect(result.errors.map((e) => e.span)).toEqual([{ start: 6, end: text.length - 5 }]);
  });

  l2("scanning goes on where the list went wrong, not right after its '(': a call inside an earlier string is not read", () => {
    for (const text of ['f("g(1)" h)', 'k(["m(2)"] 3)', 'w({"x(1)": 1} y)', 'note(a="b(1)" c="d")']) {
      nothingIn(text, "rule: a missing separator goes wrong at the character found there");
    }
  });

  l2("a keyword needs a key: '=' with nothing before it makes the list prose", () => {
    for (const text of ["f(=1)", "f(1, = 2)", "f(a, =)", "f(x=1, =2)"]) nothingIn(text, "rule: a key is one or more characters");
  });

  l2("a missing separator, a key without its colon or an empty key makes the list prose", () => {
    for (const text of [
      'f("a" "b")', "f([1] 2)", "f({} x)", 'f(["a" 1])', "f([{} 2])", 'f({"a"= 1})', "f({a=1})", 'f({"k" 1})', "f({: 1})",
      "f({a: 1, : 2})", 'f({"a": "b" ;"c": 1})',
    ]) {
      nothingIn(text, "rule: items need ',' between them, keys need ':' or '：', a key is never empty");
    }
  });

  l2("an empty argument or item, whatever whitespace it holds, makes the list prose", () => {
    for (const text of ["g(2, \t, 3)", "g(\n,)", "g(1,\u3000,)", "g(x,,)", "g([1, ,2])", "g({a: 1,, b: 2})", "g(\r\n, 1)"]) {
      nothingIn(text, "rule: an empty argument makes the list invalid");
    }
  });

  l2("bare words: a leading + or a leading dot still makes a number", () => {
    expect(only("f(+5, .75, +.5, -.5e1, +0, +1.)").args).toEqual([5, 0.75, 0.5, -5, 0, 1]);
  });

  l2("escapes: every simple escape, any other escaped character, and \\x / \\u with exactly their digits", () => {
    expect(only(String.raw`f("\n\r\t\b\f\v\0", "\q\(\,\\", "\x7e\u00e9\u{10FFFF}\u{0}\u{00041}")`).args)
      .toEqual(["\n\r\t\b\f\v\0", "q(,\\", "~é\u{10FFFF}\0A"]);
  });

  l2("a bad \\x or \\u escape makes the list prose: a wrong digit anywhere, seven digits in braces, nothing in them, above 10FFFF", () => {
    for (const text of [
      String.raw`f("\xZ1")`, String.raw`f("\x1Z")`, String.raw`f("\x4")`, String.raw`f("\uZ123")`, String.raw`f("\u123Z")`,
      String.raw`f("\u{12g}")`, String.raw`f("\u{0000041}")`, String.raw`f("\u{0000417}")`, String.raw`f("\u{}")`,
      String.raw`f("\u{110000}")`, String.raw`f("\u{FFFFFFF}")`, String.raw`f("ok\xG`, String.raw`f("ok\u00G`,
    ]) {
      nothingIn(text, "rule: a bad \\x/\\u escape makes the list invalid");
    }
  });

  l2("the text ending inside an escape is a truncated call: after the backslash, or inside \\x, \\u or \\u{...}", () => {
    for (const text of [String.raw`f("a\\`.slice(0, -1), String.raw`f("\x4`, String.raw`f("\x`, String.raw`f("\u00`, String.raw`f("\u`,
      String.raw`f("\u{1F6`, String.raw`f("\u{`, String.raw`f('\u{10FFF`]) {
      const result = parseToolCalls(text);
      expect(result.calls, `rule: never a call: ${text}`).toEqual([]);
      expect(result.errors.map((e) => [e.name, e.span]), `rule: a truncated call: ${text}`).toEqual([["f", { start: 0, end: text.length }]]);
    }
  });

  l2("a cut-off array or object after a complete item is a truncated call", () => {
    for (const text of ['f(["a"', 'f({"k": "v"', "f([1, [2]", 'f({a: {b: "c"}', "f(x=[]"]) {
      expect(parseToolCalls(text).errors.map((e) => [e.name, e.span]), `rule: the text ends inside the argument list: ${text}`)
        .toEqual([["f", { start: 0, end: text.length }]]);
    }
  });

  l3("arrays nest at most 64 deep in a call: the bracket of level 65 ends an error from the name, and scanning goes on from it", () => {
    expect(only(`run(1, ${"[".repeat(64)}2${"]".repeat(64)})`).args).toHaveLength(2);
    const text = `run(1, ${"[".repeat(65)}2${"]".repeat(65)}) h(3)`;
    const result = parseToolCalls(text);
    expect(result.errors.map((e) => [e.name, e.span]), "rule: from the name to the bracket that opens level 65").toEqual([["run", { start: 0, end: 71 }]]);
    expect(result.calls.map(brief)).toEqual([{ name: "h", args: [3], kwargs: {} }]);
    const mixed = `f(${"[{a: ".repeat(32)}1${"}]".repeat(32)})`;
    expect(only(mixed).name, "rule: arrays and objects each count one level").toBe("f");
    expect(parseToolCalls(`f(${"[{a: ".repeat(32)}[1]${"}]".repeat(32)})`).errors.map((e) => e.span.end)).toEqual([2 + 32 * 5]);
  });

  l2("parsed objects keep every key as a plain own property, Object.prototype names too", () => {
    const [object] = only('f({"toString": 1, "__proto__": 2, valueOf: 3, hasOwnProperty: 4, plain: 5})').args as [Record<string, Value>];
    const plain = (value: Value) => ({ value, enumerable: true, writable: true, configurable: true });
    expect(Object.getOwnPropertyDescriptors(object)).toEqual({
      toString: plain(1), ["__proto__"]: plain(2), valueOf: plain(3), hasOwnProperty: plain(4), plain: plain(5),
    });
  });
});

describe("1. Finding calls: code fences and pythonic lists, on new inputs", () => {
  l2("code fences: a call on a fence line, or one that crosses the closing line, does not lie between the lines: the block stays", () => {
    expect(parseToolCalls("```tool f(1)\n```").prose, "rule: a call on the opening line").toBe("```tool \n```");
    const crossing = 'say:\n```\nf("\n```\n")';
    const result = parseToolCalls(crossing);
    expect(result.calls.map((c) => c.args), "rule: a ``` line counts even inside a string").toEqual([["\n```\n"]]);
    expect(result.prose, "rule: a call that crosses the closing line is not wholly inside").toBe("say:\n```\n");
  });

  l2("code fences: an error that ends where a fence line starts lies outside that line", () => {
    expect(parseToolCalls('```\nTOOL_CALL: {"name": "f"\n```\nend').prose, "rule: the error lies wholly between the lines").toBe("\nend");
    expect(parseToolCalls('TOOL_CALL: {"name": "f"\n```\ng(1)\n```\nz').prose, "rule: an error before the block is not in it").toBe("\nz");
  });

  l2("code fences: calls before and after a call-only block, two blocks in a row, and blocks with no call", () => {
    expect(parseToolCalls("a(1)\n```\nb(2)\n```\nc(3)").prose, "rule: the block of b(2) alone is cut").toBe("\n\n");
    expect(parseToolCalls("a(1)\n```\nnote\n```").prose, "rule: a block of prose stays").toBe("\n```\nnote\n```");
    expect(parseToolCalls("```\nf(1)\n```\ntext\n```\ng(2)\n```\n").prose, "rule: each block is decided on its own").toBe("\ntext\n\n");
    expect(parseToolCalls("f(1)\n```\n \t\n```").prose, "rule: a block of whitespace alone stays").toBe("\n```\n \t\n```");
    expect(parseToolCalls("```\n```\nf(1)").prose, "rule: an empty block stays").toBe("```\n```\n");
  });

  l2("pythonic lists: whitespace and line breaks inside are fine; other separators, other brackets or a cut leave the brackets as text", () => {
    const list = parseToolCalls("x [ a(1) ,\n b(2) ] y");
    expect(list.calls.map((c) => c.syntax)).toEqual(["list", "list"]);
    expect(list.prose).toBe("x  y");
    for (const [text, prose] of [["[a(1);]", "[;]"], ["[a(1), b(2)", "[, "], ["［a(1)］", "［］"], ["[a(1) b(2)]", "[ ]"], ["[a(1),, b(2)]", "[,, ]"]]) {
      const result = parseToolCalls(text);
      expect(result.calls.map((c) => c.syntax), `rule: not a list: ${text}`).toEqual(result.calls.map(() => "call"));
      expect(result.prose, `rule: the brackets are ordinary text: ${text}`).toBe(prose);
    }
  });
});

// Kata 1, tasks 2 and 4 of the README: the whitelist registry and dispatch.
import { describe, expect } from "vitest";
import { BadArgumentsError, createRegistry, dispatch, type ToolDefinition, type Value } from "@impl/01-regex-dispatch";
import { l1, l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";
import { optionalParams, sliceOf, spyTool } from "./helpers.ts";

const weather = () => spyTool("get_weather", [{ name: "city" }, { name: "date", optional: true }], "sunny");

const throwing = (name: string, thrown: () => unknown): ToolDefinition => ({
  name,
  params: [],
  run() {
    throw thrown();
  },
});

/** A tool whose name may be any value: for the rule that only a primitive string is a name. */
const toolNamed = (name: unknown) => ({ name: name as string, params: [], run: () => "ran" });

describe("2. The whitelist: createRegistry", () => {
  l1("lookup finds a registered tool by its name", () => {
    const tool = weather();
    const registry = createRegistry([tool, spyTool("math.factorial", [{ name: "number" }])]);
    expect(registry.lookup("get_weather")).toBe(tool);
    expect(registry.lookup("math.factorial")?.name).toBe("math.factorial");
    expect(registry.lookup("get_time")).toBeUndefined();
  }, { core: true });

  l2("names are trimmed and case-folded, on registration and on lookup", () => {
    const tool = spyTool("  Get_Weather\t");
    const registry = createRegistry([tool]);
    for (const name of ["get_weather", "GET_WEATHER", " get_Weather ", "\nGet_Weather\n"]) {
      expect(registry.lookup(name), name).toBe(tool);
    }
    expect(registry.names()).toEqual(["get_weather"]);
  });

  l1("names() lists the normalised names in registration order", () => {
    const registry = createRegistry([spyTool("B"), spyTool("a.Sub"), spyTool(" c ")]);
    expect(registry.names()).toEqual(["b", "a.sub", "c"]);
  });

  l3("__proto__, constructor, toString and other Object.prototype names are never tools", () => {
    const tool = weather();
    for (const registry of [createRegistry([]), createRegistry([tool])]) {
      for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__", "Constructor", " __proto__ "]) {
        expect(registry.lookup(name), name).toBeUndefined();
      }
    }
    expect(createRegistry([tool]).lookup("get_weather")).toBe(tool);
  });

  l2("createRegistry rejects an empty name, a missing run and two tools with one normalised name", () => {
    expect(() => createRegistry([spyTool("   ")])).toThrow(Error);
    expect(() => createRegistry([{ name: "x", params: [] } as unknown as ToolDefinition])).toThrow(Error);
    expect(() => createRegistry([spyTool("get_weather"), spyTool(" GET_WEATHER")])).toThrow(Error);
    expect(createRegistry([spyTool("a"), spyTool("b")]).names()).toEqual(["a", "b"]);
  });

  l2("a tool name need not be an identifier: \"get weather\" is registered, and a marker can call it", () => {
    const tool = spyTool("get weather", [{ name: "city" }]);
    const registry = createRegistry([tool]);
    expect(registry.names(), "rule: any non-blank string is a name").toEqual(["get weather"]);
    const result = dispatch('TOOL_CALL: {"name": "get weather", "arguments": {"city": "Oslo"}}', registry);
    expect(result.results.map((r) => r.ok), "rule: the marker's name is looked up as any name").toEqual([true]);
    expect(tool.calls, "rule: the tool ran once").toEqual([{ city: "Oslo" }]);
  });

  l2("createRegistry throws an Error for a tool name that is not a (primitive) string", () => {
    expect(createRegistry([toolNamed("calc")]).names(), "a primitive string is a name").toEqual(["calc"]);
    for (const name of [42, undefined, null, ["calc"], new String("calc")]) {
      expect(() => createRegistry([toolNamed(name)]), `rule: only a primitive string is a name: ${String(name)}`).toThrow(Error);
    }
  });

  l2("lookup of anything that is not a string is undefined, never a throw", () => {
    const calc = toolNamed("calc");
    const registry = createRegistry([calc]);
    expect(registry.lookup("calc"), "a string is looked up").toBe(calc);
    for (const name of [42, undefined, null, {}, ["calc"], new String("calc")]) {
      expect(() => registry.lookup(name as string), `rule: lookup never throws: ${String(name)}`).not.toThrow();
      expect(registry.lookup(name as string), `rule: lookup of a non-string is undefined: ${String(name)}`).toBeUndefined();
    }
  });
});

describe("4. Dispatch", () => {
  describe("running calls", () => {
    l1("no call in the text: the text comes back untouched and nothing runs", () => {
      const tool = weather();
      const registry = createRegistry([tool]);
      for (const text of ["Just prose.", "It is warm (about 20 degrees).", "注意（括号）", ""]) {
        const result = dispatch(text, registry);
        expect(result.text).toBe(text);
        expect(result.results).toEqual([]);
      }
      expect(tool.calls).toEqual([]);
    });

    l1("a registered tool runs with its bound arguments; its value comes back", () => {
      const tool = weather();
      const result = dispatch(`get_weather("北京", date="今天")`, createRegistry([tool]));
      expect(tool.calls).toEqual([{ city: "北京", date: "今天" }]);
      expect(result.results).toHaveLength(1);
      expect(result.results[0]).toMatchObject({ ok: true, value: "sunny", call: { name: "get_weather" } });
    }, { core: true });

    l1("the text around a call comes back as prose", () => {
      const text = `Let me check. get_weather(city="Oslo") One moment.`;
      const result = dispatch(text, createRegistry([weather()]));
      expect(result.text).toBe("Let me check.  One moment.");
      expect(sliceOf(text, result.results[0].span)).toBe(`get_weather(city="Oslo")`);
    });

    l1("several calls run in text order, whatever their format", () => {
      const order: string[] = [];
      const tool = (name: string): ToolDefinition => ({ name, params: optionalParams("n"), run: ({ n }) => order.push(`${name}${n}`) });
      const registry = createRegistry(["a", "b", "c"].map(tool));
      const text = `a(n=1) then\nTOOL_CALL: {"name": "b", "arguments": {"n": 2}}\n[c(n=3), a(n=4)] and b(5)`;
      const result = dispatch(text, registry);
      expect(order).toEqual(["a1", "b2", "c3", "a4", "b5"]);
      expect(result.results.map((r) => r.ok)).toEqual([true, true, true, true, true]);
    });

    l2("the tool's value is passed through as is", () => {
      const value = { rows: [1, 2], when: new Date(0) };
      const result = dispatch("q()", createRegistry([spyTool("q", [], value)]));
      expect(result.results[0].value).toBe(value);
    });
  });

  describe("the whitelist at work", () => {
    l2("an unknown name is unknown_tool and nothing runs", () => {
      const tool = weather();
      const result = dispatch(`get_wether(city="x") then get_weather(city="y")`, createRegistry([tool]));
      expect(result.results.map((r) => r.error?.code ?? "ok")).toEqual(["unknown_tool", "ok"]);
      expect(result.results[0].call?.name).toBe("get_wether");
      expect(tool.calls).toEqual([{ city: "y" }]);
    }, { core: true });

    l3("constructor(), __proto__(), toString() and friends are unknown tools, in every format", () => {
      const tool = weather();
      const registry = createRegistry([tool]);
      const text = `constructor() __proto__() toString() valueOf() [hasOwnProperty(), constructor.constructor("return 1")]\nTOOL_CALL: {"name": "__proto__", "arguments": {}}`;
      const result = dispatch(text, registry);
      expect(result.results).toHaveLength(7);
      for (const r of result.results) expect(r.error?.code).toBe("unknown_tool");
      expect(tool.calls).toEqual([]);
    });

    l2("the name's case and surrounding whitespace do not matter", () => {
      const tool = weather();
      const registry = createRegistry([tool]);
      const result = dispatch(`GET_WEATHER(city="a") Get_Weather(city="b")\nTOOL_CALL: {"name": "  get_WEATHER ", "arguments": {"city": "c"}}`, registry);
      expect(result.results.map((r) => r.ok)).toEqual([true, true, true]);
      expect(tool.calls.map((c) => c.city)).toEqual(["a", "b", "c"]);
    });

    l2("a truncated call never runs: parse_error with a null call", () => {
      const tool = weather();
      const text = `Checking get_weather(city="北京", date="今`;
      const result = dispatch(text, createRegistry([tool]));
      expect(tool.calls).toEqual([]);
      expect(result.results).toEqual([
        { call: null, span: { start: 9, end: text.length }, ok: false, error: expect.objectContaining({ code: "parse_error" }) },
      ]);
      expect(result.text).toBe("Checking ");
    });

    l2("results come in text order, parse errors included", () => {
      const tool = weather();
      const text = `get_weather(city="a") nope()\nTOOL_CALL: {"name": 7}\nget_weather(city="b"`;
      const result = dispatch(text, createRegistry([tool]));
      expect(result.results.map((r) => r.error?.code ?? "ok")).toEqual(["ok", "unknown_tool", "parse_error", "parse_error"]);
      const starts = result.results.map((r) => r.span.start);
      expect([...starts].sort((x, y) => x - y)).toEqual(starts);
      expect(tool.calls).toEqual([{ city: "a" }]);
    });
  });

  describe("binding arguments: bad_arguments", () => {
    l2("positional arguments fill the parameters in order, keywords go by name, optional ones may be missing", () => {
      const tool = spyTool("t", [{ name: "a" }, { name: "b", optional: true }, { name: "c", optional: true }]);
      const registry = createRegistry([tool]);
      dispatch("t(1, 2, 3) t(1, c=3) t(c=3, a=1) t(1)", registry);
      expect(tool.calls).toEqual([{ a: 1, b: 2, c: 3 }, { a: 1, c: 3 }, { a: 1, c: 3 }, { a: 1 }]);
      expect(Object.keys(tool.calls[1])).not.toContain("b");
    });

    l2("too many arguments, an unknown keyword, a parameter given twice or a missing one: bad_arguments, nothing runs", () => {
      const tool = spyTool("t", [{ name: "a" }, { name: "b", optional: true }]);
      const registry = createRegistry([tool]);
      for (const text of ["t(1, 2, 3)", "t(a=1, z=2)", "t(1, a=2)", "t(b=2)", "t()", `t(1, __proto__={"x": 1})`]) {
        const result = dispatch(text, registry);
        expect(result.results.map((r) => r.error?.code), text).toEqual(["bad_arguments"]);
        expect(result.results[0].call?.name, text).toBe("t");
      }
      expect(tool.calls).toEqual([]);
      dispatch("t(1)", registry);
      expect(tool.calls).toEqual([{ a: 1 }]);
    });

    l2("a tool that throws BadArgumentsError gives bad_arguments with its message", () => {
      const tool: ToolDefinition = {
        name: "age",
        params: [{ name: "years" }],
        run({ years }) {
          if (typeof years !== "number") throw new BadArgumentsError("years must be a number");
          return years + 1;
        },
      };
      const result = dispatch(`age("old") age(41)`, createRegistry([tool]));
      expect(result.results[0]).toMatchObject({ ok: false, error: { code: "bad_arguments", message: "years must be a number" } });
      expect(result.results[1]).toMatchObject({ ok: true, value: 42 });
    });
  });

  describe("messages about arguments", () => {
    l3("binding's bad_arguments messages never quote what the model wrote: a planted secret does not come back", () => {
      const SECRET = "Wk3Pz8Tq5Lx1Vd6J";
      const tool = spyTool("t", [{ name: "q" }, { name: "n", optional: true }]);
      const registry = createRegistry([tool]);
      for (const text of [`t(q="x", ${SECRET}=1)`, `t("a", 2, "${SECRET}")`, `t(n="${SECRET}")`, `t("${SECRET}", q="y")`]) {
        const result = dispatch(text, registry);
        expect(result.results.map((r) => r.error?.code), `bad_arguments: ${text}`).toEqual(["bad_arguments"]);
        const message = result.results[0].error?.message ?? "";
        expect(leakedPieces(message, SECRET), `rule: an argument error never quotes the model's text: ${text} -> ${message}`).toEqual([]);
      }
      expect(tool.calls, "nothing ran").toEqual([]);
    });

    l3("parse_error results never quote the text: a secret in a broken marker does not come back", () => {
      const SECRET = "Rb5Yn2Gc9Fh4Ms7D";
      const text = `TOOL_CALL: {"name": "login", "arguments": {"password": ${SECRET}"}}\nTOOL_CALL: {"name": "login", "arguments": "${SECRET}"}`;
      const result = dispatch(text, createRegistry([spyTool("login", optionalParams("password"))]));
      expect(result.results.map((r) => r.error?.code), "two broken markers").toEqual(["parse_error", "parse_error"]);
      for (const r of result.results) {
        expect(leakedPieces(r.error?.message ?? "", SECRET), `rule: an argument error never quotes the model's text: ${r.error?.message}`).toEqual([]);
      }
    });
  });

  describe("tools that throw: tool_error", () => {
    l2("an Error becomes tool_error with its type and message, and no stack", () => {
      const registry = createRegistry([
        throwing("boom", () => new TypeError("cannot read 'x' of undefined")),
        throwing("range", () => new RangeError("too big")),
      ]);
      const result = dispatch("boom() range()", registry);
      expect(result.results.map((r) => r.error)).toEqual([
        { code: "tool_error", type: "TypeError", message: "cannot read 'x' of undefined" },
        { code: "tool_error", type: "RangeError", message: "too big" },
      ]);
      expect(JSON.stringify(result)).not.toMatch(/\n\s+at |\.ts:\d+/);
    });

    l2("a custom error class keeps its name as the type", () => {
      class QuotaError extends Error {
        override name = "QuotaError";
      }
      const result = dispatch("q()", createRegistry([throwing("q", () => new QuotaError("out of quota"))]));
      expect(result.results[0].error).toEqual({ code: "tool_error", type: "QuotaError", message: "out of quota" });
    });

    l2("a thrown non-Error: its typeof is the type and String(value) the message", () => {
      const registry = createRegistry([
        throwing("s", () => "plain string"),
        throwing("n", () => 42),
        throwing("o", () => ({ reason: "x" })),
        throwing("u", () => undefined),
      ]);
      const result = dispatch("s() n() o() u()", registry);
      expect(result.results.map((r) => r.error)).toEqual([
        { code: "tool_error", type: "string", message: "plain string" },
        { code: "tool_error", type: "number", message: "42" },
        { code: "tool_error", type: "object", message: "[object Object]" },
        { code: "tool_error", type: "undefined", message: "undefined" },
      ]);
    });

    l2("an Error's name and message that are not strings come back through String()", () => {
      const result = dispatch("a() b()", createRegistry([
        throwing("a", () => Object.assign(new Error("x"), { name: 42 })),
        throwing("b", () => Object.assign(new TypeError(), { message: ["m", 1] })),
      ]));
      expect(result.results[0].error, "rule: type is String(name)").toEqual({ code: "tool_error", type: "42", message: "x" });
      expect(result.results[1].error, "rule: message is String(message)").toEqual({ code: "tool_error", type: "TypeError", message: "m,1" });
    });

    l2("BadArgumentsError is told by instanceof: an Error merely named \"BadArgumentsError\" is a tool_error", () => {
      const impostor = Object.assign(new Error("not really"), { name: "BadArgumentsError" });
      const result = dispatch("fake() real()", createRegistry([
        throwing("fake", () => impostor),
        throwing("real", () => new BadArgumentsError("really")),
      ]));
      expect(result.results[0].error, "rule: a look-alike is another Error").toEqual({ code: "tool_error", type: "BadArgumentsError", message: "not really" });
      expect(result.results[1].error, "rule: an instance is bad_arguments").toMatchObject({ code: "bad_arguments", message: "really" });
    });

    l3("a thrown Proxy whose instanceof check throws is handled as no Error, and dispatch goes on", () => {
      const after = spyTool("after");
      const proxy = new Proxy({}, { getPrototypeOf() { throw new Error("trap"); } });
      const registry = createRegistry([throwing("p", () => proxy), after]);
      let result: ReturnType<typeof dispatch> | undefined;
      expect(() => { result = dispatch("p() after()", registry); }, "rule: dispatch never throws").not.toThrow();
      expect(result?.results[0].error, "rule: not an Error: typeof and String()").toEqual({ code: "tool_error", type: "object", message: "[object Object]" });
      expect(after.calls, "rule: the next call still runs").toHaveLength(1);
    });

    l3("a tool that throws never breaks dispatch, even with a hostile thrown value", () => {
      const after = spyTool("after");
      const hostile = Object.create(null) as object; // String(hostile) throws
      const getterBomb = new Error("x");
      Object.defineProperty(getterBomb, "message", { get() { throw new Error("gotcha"); } });
      const registry = createRegistry([throwing("h", () => hostile), throwing("g", () => getterBomb), after]);
      const result = dispatch("h() g() after()", registry);
      expect(result.results.map((r) => r.error?.code ?? "ok")).toEqual(["tool_error", "tool_error", "ok"]);
      expect(result.results[0].error).toMatchObject({ type: "object", message: "" });
      expect(after.calls).toHaveLength(1);
    });
  });

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

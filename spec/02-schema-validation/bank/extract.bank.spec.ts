// Held-out bank, kata 2, tasks 1 and 2: extraction and argument decoding, with messages the
// visible specs do not use and random cases. The candidate pack leaves this folder out.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { extractToolCalls } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../../support/graded.ts";
import { argumentsObject, callFreeProse, generatedCall, nastyJson, renderInText, textShape, toolName } from "../arbitraries.ts";

const entry = (name: string, args: unknown, id?: string) => ({ ...(id === undefined ? {} : { id }), type: "function", function: { name, arguments: args } });

describe("1. Extract the tool calls", () => {
  l1("an OpenAI message with three calls, one without an id, arguments as JSON text", () => {
    const r = extractToolCalls({
      role: "assistant",
      content: "ignored {\"name\": \"nope\", \"arguments\": {}}",
      tool_calls: [entry("search", '{"q":"tea","limit":3}', "call_x1"), entry("open", '{"url":"https://a.b"}'), entry("close", "{}", "call_x3")],
    });
    expect(r.calls).toEqual([
      { id: "call_x1", name: "search", arguments: { q: "tea", limit: 3 } },
      { id: "call_1", name: "open", arguments: { url: "https://a.b" } },
      { id: "call_x3", name: "close", arguments: {} },
    ]);
    expect(r.errors).toEqual([]);
  });

  l2("generated ids step around the ids already taken; an empty id is replaced", () => {
    const r = extractToolCalls({ tool_calls: [entry("a", "{}", "call_1"), entry("b", "{}"), entry("c", "{}", "")] });
    expect(r.calls.map((c) => c.id)).toEqual(["call_1", "call_1_2", "call_2"]);
  });

  l2("an Anthropic message: a call in a text block comes before the tool_use block after it", () => {
    const r = extractToolCalls({
      role: "assistant",
      content: [
        { type: "text", text: 'First {"name": "t1", "arguments": {"k": [1, {"z": 2}]}}' },
        { type: "tool_use", id: "toolu_7", name: "t2", input: { a: "b" } },
        { type: "tool_result", tool_use_id: "toolu_0", content: '{"name": "t3", "arguments": {}}' },
      ],
    });
    expect(r.calls).toEqual([
      { id: "call_0", name: "t1", arguments: { k: [1, { z: 2 }] } },
      { id: "toolu_7", name: "t2", arguments: { a: "b" } },
    ]);
  });

  l2("a reply cut off inside an outer object still gives the complete calls inside it", () => {
    const r = extractToolCalls('Plan: {"steps": [{"name": "a", "arguments": {"n": 1}}, {"name": "b", "arg');
    expect(r.calls).toEqual([{ id: "call_0", name: "a", arguments: { n: 1 } }]);
  });

  l2("an array message: object elements are read, nested arrays and a name without arguments are not calls", () => {
    const r = extractToolCalls([{ name: "a", arguments: {} }, [{ name: "n", arguments: {} }], 5, "b()", { name: "x" }]);
    expect(r.calls.map((c) => c.name)).toEqual(["a"]);
    expect(r.errors).toEqual([]);
  });

  l2("a <tool_call> tag holding a whole OpenAI message is read as that message", () => {
    const inner = { role: "assistant", tool_calls: [entry("w", '{"q":1}', "k")] };
    expect(extractToolCalls(`<tool_call>${JSON.stringify(inner)}</tool_call>`).calls).toEqual([{ id: "k", name: "w", arguments: { q: 1 } }]);
  });

  l2("an unclosed tag after a closed one: the first call stays, nothing after the open tag is used", () => {
    const r = extractToolCalls('<tool_call>{"name":"a","arguments":{}}</tool_call> then <tool_call>{"name":"b","arguments":{}} {"name":"c","arguments":{}}');
    expect(r.calls.map((c) => c.name)).toEqual(["a"]);
    expect(r.errors.map((e) => e.code)).toEqual(["unclosed_tag"]);
  });

  l2("names are kept exactly as written: no trimming, no case change", () => {
    const r = extractToolCalls({ tool_calls: [entry(" Get_Weather ", "{}", "1"), entry("get.weather", "{}", "2")] });
    expect(r.calls.map((c) => c.name)).toEqual([" Get_Weather ", "get.weather"]);
  });

  l2.property("known names: calls and data objects mixed in prose, only the known names are calls", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(generatedCall, fc.boolean()), { minLength: 1, maxLength: 4 }), callFreeProse, (items, prose) => {
        const known = items.filter(([, k]) => k).map(([c]) => c.name);
        const text = items.map(([c]) => JSON.stringify({ name: c.name, arguments: c.arguments })).join(prose.replace(/[{[]/g, "") || " ");
        const r = extractToolCalls(text, known);
        expect(r.calls.map((c) => c.name)).toEqual(items.map(([c]) => c.name).filter((n) => known.includes(n)));
      }),
    );
  });

  l2.property("ids: given non-empty ids are kept, generated ones are unique and deterministic", () => {
    const id = fc.option(fc.constantFrom("", "call_0", "call_1", "call_1_2", "call_2", "x", "toolu_1"), { nil: undefined });
    fc.assert(
      fc.property(fc.array(fc.tuple(toolName, id), { minLength: 1, maxLength: 6 }), (specs) => {
        const message = { tool_calls: specs.map(([n, i]) => entry(n, "{}", i)) };
        const ids = extractToolCalls(message).calls.map((c) => c.id);
        expect(ids, "rule: the same message always gets the same ids").toEqual(extractToolCalls(message).calls.map((c) => c.id));
        specs.forEach(([, given], i) => {
          if (typeof given === "string" && given !== "") expect(ids[i]).toBe(given);
          else {
            expect(ids[i].startsWith(`call_${i}`)).toBe(true);
            expect(ids.filter((x) => x === ids[i])).toHaveLength(1);
          }
        });
      }),
    );
  });

  l3.property("calls in every text shape inside prose, one after another: all of them, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(generatedCall, fc.constantFrom("tag", "bare", "fence", "string-args", "double-encoded", "parameters" as const)), { minLength: 1, maxLength: 4 }), callFreeProse, (items, prose) => {
        const text = items.map(([c, shape]) => renderInText(c, shape)).join(` ${prose.replace(/[{[]/g, "")} `);
        const r = extractToolCalls(text);
        expect(r.calls.map((c) => [c.name, c.arguments])).toEqual(items.map(([c]) => [c.name, c.arguments]));
      }),
    );
  });

  l2("a tag holding a one-element array, an empty array, nested arrays or an array of entries and blocks: one missing_name each, the calls around them stay", () => {
    const text = [
      'Checking first {"name": "ping_host", "arguments": {"host": "db1"}}',
      '<tool_call>\n  [{"name": "reboot_host", "arguments": {"host": "db1"}}]  \n</tool_call>',
      "<tool_call>[]</tool_call>",
      '<tool_call>[[{"name": "reboot_host", "arguments": {}}]]</tool_call>',
      '<tool_call>[{"type": "tool_use", "id": "tu_9", "name": "wipe_disk", "input": {}}, {"type": "function", "function": {"name": "wipe_disk", "arguments": "{}"}}]</tool_call>',
      '<tool_call>{"name": "status_report", "arguments": {"hosts": ["db1", "db2"]}}</tool_call>',
    ].join(" then ");
    const known = ["ping_host", "reboot_host", "wipe_disk", "status_report"];
    for (const message of [text, { role: "assistant", content: text }, { role: "assistant", content: [{ type: "text", text }] }]) {
      for (const r of [extractToolCalls(message), extractToolCalls(message, known)]) {
        expect(r.calls.map((c) => [c.name, c.arguments]), "rule: a tag holds one call; an array in it gives none, whatever its elements").toEqual([
          ["ping_host", { host: "db1" }],
          ["status_report", { hosts: ["db1", "db2"] }],
        ]);
        expect(r.errors.map((e) => e.code), "rule: each tag holding an array (empty, nested or of calls) is one missing_name").toEqual(["missing_name", "missing_name", "missing_name", "missing_name"]);
      }
    }
  });

  l2.property("an array in a tag never gives a call, whatever it holds and wherever the tag sits among calls in other shapes", () => {
    const safeCall = generatedCall.filter((c) => !JSON.stringify(c).includes("tool_call"));
    const element = fc.tuple(safeCall, fc.constantFrom("bare", "entry", "block", "params" as const)).map(([c, kind]) =>
      kind === "bare" ? { name: c.name, arguments: c.arguments }
      : kind === "params" ? { name: c.name, parameters: c.arguments }
      : kind === "entry" ? { type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }
      : { type: "tool_use", id: "tu", name: c.name, input: c.arguments },
    );
    const arrayTag = fc
      .tuple(fc.array(element, { maxLength: 3 }), fc.nat(2), fc.constantFrom("", " ", "\n", "\t ", "\u00a0"), fc.boolean())
      .map(([items, nesting, space, fenced]) => {
        let value: unknown = items;
        for (let i = 0; i < nesting; i++) value = [value];
        const json = JSON.stringify(value, null, fenced ? 2 : undefined);
        return `<tool_call>${space}${fenced ? "\n```json\n" + json + "\n```\n" : json}${space}</tool_call>`;
      });
    const piece = fc.oneof(fc.tuple(generatedCall, textShape).map(([c, shape]) => ({ call: c, text: renderInText(c, shape) })), arrayTag.map((text) => ({ call: undefined, text })));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), callFreeProse, (pieces, prose) => {
        const text = pieces.map((p) => p.text).join(` ${prose.replace(/[{[]/g, "")} `);
        const r = extractToolCalls(text);
        const calls = pieces.flatMap((p) => (p.call ? [p.call] : []));
        expect(r.calls.map((c) => [c.name, c.arguments])).toEqual(calls.map((c) => [c.name, c.arguments]));
        expect(r.errors.map((e) => e.code)).toEqual(pieces.filter((p) => !p.call).map(() => "missing_name"));
      }),
    );
  });

  l2("inherited message keys are never read: content, function, type and tool_calls from a prototype", () => {
    const call = '{"name": "wire_funds", "arguments": {"amount": 900}}';
    const fromContent = Object.create({ content: `sending ${call}` }) as Record<string, unknown>;
    fromContent.role = "assistant";
    expect(extractToolCalls(fromContent), "rule: an inherited content is not scanned").toEqual({ calls: [], errors: [] });
    const fromFunction = Object.create({ function: { name: "wire_funds", arguments: "{}" }, type: "function" }) as Record<string, unknown>;
    fromFunction.id = "call_q";
    expect(extractToolCalls(fromFunction), "rule: an inherited function is not a tool-call entry").toEqual({ calls: [], errors: [] });
    const block = Object.create({ type: "tool_use" }) as Record<string, unknown>;
    Object.assign(block, { id: "tu_1", name: "wire_funds", input: { amount: 1 } });
    expect(extractToolCalls(block).calls.map((c) => c.arguments), "rule: an inherited type does not make a tool_use block").toEqual([]);
    const own = Object.create({ tool_calls: [{ id: "x", type: "function", function: { name: "wire_funds", arguments: "{}" } }] }) as Record<string, unknown>;
    own.content = `ok ${call.replace("wire_funds", "check_balance")}`;
    expect(extractToolCalls(own).calls.map((c) => c.name), "rule: only the own content counts, not the inherited tool_calls").toEqual(["check_balance"]);
  });
});

describe("2. Decode the arguments", () => {
  const decoded = (raw: unknown, key = "arguments") => extractToolCalls({ name: "f", [key]: raw }).calls[0];

  l2("a triple-encoded string is not an object after two decodes; a bad second decode is invalid_json", () => {
    const thrice = JSON.stringify(JSON.stringify(JSON.stringify({ a: 1 })));
    const block = extractToolCalls({ type: "tool_use", id: "t", name: "f", input: thrice }).calls[0];
    expect(block).toMatchObject({ id: "t", name: "f", arguments: {}, argumentsError: { code: "not_an_object", raw: thrice } });
    const bad = JSON.stringify("{bad");
    expect(decoded(bad)).toMatchObject({ arguments: {}, argumentsError: { code: "invalid_json", raw: bad } });
  });

  l2('"null", a newline-only string, and ambiguous keys with raw holding both', () => {
    expect(decoded("null")).toMatchObject({ arguments: {}, argumentsError: { code: "not_an_object" } });
    const blank = decoded("  \n\t ");
    expect(blank.arguments).toEqual({});
    expect(blank.argumentsError).toBeUndefined();
    const both = decoded({ a: 1 });
    expect(both.argumentsError).toBeUndefined();
    const amb = extractToolCalls({ name: "f", arguments: { a: 1 }, parameters: "{}" }).calls[0];
    expect(amb.argumentsError).toMatchObject({ code: "ambiguous_arguments", raw: { arguments: { a: 1 }, parameters: "{}" } });
  });

  l2("arguments and parameters together, in every call shape and either key order: ambiguous_arguments, {} and raw holding both", () => {
    const a = { city: "Oslo" };
    const p = '{"city": "Bergen"}';
    const json = '{"name": "geo_lookup", "parameters": "{\\"city\\": \\"Bergen\\"}", "arguments": {"city": "Oslo"}}';
    const shapes: Array<[string, unknown, (readonly string[])?]> = [
      ["a bare object, parameters first", { parameters: p, name: "geo_lookup", arguments: a }],
      ["an OpenAI entry's function", { tool_calls: [{ id: "q9", type: "function", function: { name: "geo_lookup", parameters: p, arguments: a } }] }],
      ["a flat tool_calls entry", { tool_calls: [{ id: "q9", name: "geo_lookup", arguments: a, parameters: p }] }],
      ["an element of an array message", [{ id: "q9", name: "geo_lookup", parameters: p, arguments: a }]],
      ["a tag", `<tool_call>${json}</tool_call>`],
      ["prose", `Looking it up: ${json} (one moment)`],
      ["prose, with known names", `Looking it up: ${json}`, ["geo_lookup"]],
    ];
    for (const [shape, message, known] of shapes) {
      const r = extractToolCalls(message, known);
      expect(r.calls, `${shape}: rule: the call is kept`).toHaveLength(1);
      const [call] = r.calls;
      expect([call.name, call.arguments], `${shape}: rule: neither key wins, the arguments are {}`).toEqual(["geo_lookup", {}]);
      expect(call.argumentsError?.code, `${shape}: rule: both present is ambiguous_arguments`).toBe("ambiguous_arguments");
      expect(call.argumentsError?.raw, `${shape}: rule: raw holds both, as the message carried them`).toEqual({ arguments: a, parameters: p });
      expect(r.errors).toEqual([]);
    }
  });

  l2("both present whatever the values (a null or empty arguments, equal values); only one own key, or one inside the arguments, is not ambiguous", () => {
    const code = (o: Record<string, unknown>) => extractToolCalls(o).calls[0]?.argumentsError?.code;
    expect(code({ name: "sync_repo", arguments: null, parameters: { branch: "main" } }), "rule: a null arguments next to parameters").toBe("ambiguous_arguments");
    expect(code({ name: "sync_repo", parameters: "", arguments: '{"branch": "main"}' }), 'rule: an empty parameters next to arguments').toBe("ambiguous_arguments");
    expect(code({ name: "sync_repo", arguments: "  ", parameters: null }), "rule: two empty-looking values are still both present").toBe("ambiguous_arguments");
    expect(code({ name: "sync_repo", arguments: '{"branch": "dev"}', parameters: '{"branch": "dev"}' }), "rule: equal values are still ambiguous").toBe("ambiguous_arguments");
    const inherited = Object.create({ parameters: '{"branch": "evil"}' }) as Record<string, unknown>;
    Object.assign(inherited, { name: "sync_repo", arguments: '{"branch": "main"}' });
    const [own] = extractToolCalls(inherited).calls;
    expect([own.arguments, own.argumentsError], "rule: an inherited parameters is not present").toEqual([{ branch: "main" }, undefined]);
    const [nested] = extractToolCalls({ name: "sync_repo", arguments: { parameters: { depth: 1 } } }).calls;
    expect([nested.arguments, nested.argumentsError], "rule: a parameters key inside the arguments is an argument").toEqual([{ parameters: { depth: 1 } }, undefined]);
    const [alone] = extractToolCalls({ name: "sync_repo", parameters: null }).calls;
    expect([alone.arguments, alone.argumentsError], "rule: parameters alone, null, is {}").toEqual([{}, undefined]);
  });

  l2.property("any two values under arguments and parameters, in any shape and key order: always ambiguous_arguments with both in raw", () => {
    const value = fc.oneof(argumentsObject, argumentsObject.map((o) => JSON.stringify(o)), fc.constantFrom(null, "", " ", "{}", "[1]", "not json"), nastyJson);
    const shape = fc.constantFrom("bare", "entry", "flat", "array", "tag", "prose" as const);
    fc.assert(
      fc.property(toolName, value, value, fc.boolean(), shape, (name, a, p, parametersFirst, where) => {
        const holder = parametersFirst ? { name, parameters: p, arguments: a } : { name, arguments: a, parameters: p };
        const message =
          where === "bare" ? holder
          : where === "entry" ? { tool_calls: [{ id: "c1", type: "function", function: holder }] }
          : where === "flat" ? { tool_calls: [{ id: "c1", ...holder }] }
          : where === "array" ? [holder]
          : where === "tag" ? `<tool_call>\n${JSON.stringify(holder)}\n</tool_call>`
          : `Here: ${JSON.stringify(holder)} done`;
        const r = extractToolCalls(message);
        expect(r.calls.map((c) => c.name)).toEqual([name]);
        expect(r.calls[0].arguments).toEqual({});
        expect(r.calls[0].argumentsError?.code).toBe("ambiguous_arguments");
        expect(r.calls[0].argumentsError?.raw).toEqual({ arguments: a, parameters: p });
      }),
    );
  });

  l2.property("non-object JSON, encoded once or twice, is not_an_object with the raw value kept", () => {
    const nonObject = fc.oneof(fc.integer(), fc.boolean(), fc.array(nastyJson, { maxLength: 3 }), fc.string().filter((s) => s.trim() !== "").map((s) => JSON.stringify(s)));
    fc.assert(
      fc.property(nonObject, fc.constantFrom(1, 2), (value, times) => {
        let raw = JSON.stringify(value);
        if (times === 2) raw = JSON.stringify(raw);
        const call = extractToolCalls({ tool_calls: [entry("f", raw, "c")] }).calls[0];
        expect(call.name).toBe("f");
        expect(call.arguments).toEqual({});
        expect(call.argumentsError?.code).toBe("not_an_object");
        expect(call.argumentsError?.raw).toBe(raw);
      }),
    );
  });

  l2.property("any arguments object survives the OpenAI, Anthropic and parameters shapes equal", () => {
    fc.assert(
      fc.property(argumentsObject, (args) => {
        const viaOpenAI = extractToolCalls({ tool_calls: [entry("f", JSON.stringify(args), "c")] }).calls[0];
        const viaAnthropic = extractToolCalls({ type: "tool_use", id: "t", name: "f", input: args }).calls[0];
        const viaParameters = extractToolCalls({ name: "f", parameters: JSON.stringify(JSON.stringify(args)) }).calls[0];
        for (const call of [viaOpenAI, viaAnthropic, viaParameters]) {
          expect(call.argumentsError).toBeUndefined();
          expect(call.arguments).toEqual(args);
        }
      }),
    );
  });
});

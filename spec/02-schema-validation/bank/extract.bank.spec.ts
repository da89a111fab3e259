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

  // README, task 7 ("extractToolCalls never throws, whatever it is given") and task 1's table: only
  // objects are read, as the message, as an array element, a tool_calls entry or a content block.
  l3("null and other non-objects anywhere a message, an element, an entry or a tag value may be: no throw, no call from them", () => {
    for (const message of [null, undefined, 0, false, ""]) expect(extractToolCalls(message), String(message)).toEqual({ calls: [], errors: [] });
    const call = { name: "archive_logs", arguments: { days: 7 } };
    expect(extractToolCalls([null, call, undefined, 3]).calls.map((c) => c.name), "rule: only object elements are read").toEqual(["archive_logs"]);
    expect(extractToolCalls(`Rotating: [null, ${JSON.stringify(call)}, false]`).calls.map((c) => c.name), "rule: the same in prose").toEqual(["archive_logs"]);
    const r = extractToolCalls({ tool_calls: [null, entry("archive_logs", '{"days": 7}', "call_al"), 4] });
    expect(r.calls.map((c) => [c.id, c.name]), "rule: the object entry is a call").toEqual([["call_al", "archive_logs"]]);
    expect(r.errors.map((e) => e.code), "rule: a non-object entry is missing_name").toEqual(["missing_name", "missing_name"]);
    const tags = extractToolCalls("<tool_call>null</tool_call> <tool_call>17</tool_call>");
    expect([tags.calls, tags.errors.map((e) => e.code)], "rule: a tag value that is not an object is missing_name").toEqual([[], ["missing_name", "missing_name"]]);
  });

  // README, task 1, Shapes: "its text blocks ({type: "text", text}) are scanned like strings, other blocks are ignored".
  l2("Anthropic content: a null block, a text block without a string text, and a text on another kind of block are ignored", () => {
    const hidden = '{"name": "drop_table", "arguments": {"t": "users"}}';
    const r = extractToolCalls({
      role: "assistant",
      content: [null, 5, { type: "text" }, { type: "text", text: 12 }, { type: "tool_result", text: hidden }, { type: "thinking", text: `maybe ${hidden}` }, { type: "text", text: 'Now: {"name": "count_rows", "arguments": {"t": "users"}}' }],
    });
    expect(r).toEqual({ calls: [{ id: "call_0", name: "count_rows", arguments: { t: "users" } }], errors: [] });
  });

  // README, task 1, Shapes: "an object with a non-empty array tool_calls"; "extractToolCalls({ tool_calls: [], content: ... })".
  l2("an empty tool_calls array does not make an OpenAI message: a string content or a block array is read instead", () => {
    expect(extractToolCalls({ role: "assistant", tool_calls: [], content: 'Sure {"name": "tally_votes", "arguments": {"poll": 4}}' }).calls).toEqual([
      { id: "call_0", name: "tally_votes", arguments: { poll: 4 } },
    ]);
    expect(extractToolCalls({ tool_calls: [], content: [{ type: "tool_use", id: "tu_v", name: "tally_votes", input: { poll: 5 } }] }).calls).toEqual([
      { id: "tu_v", name: "tally_votes", arguments: { poll: 5 } },
    ]);
  });

  // README, task 1, What is a call: "A tool_use block and a tool-call entry are explicit wherever they are found: handed over as is, ... in prose".
  l2("a standalone tool-call entry, handed over as is or found in prose, with or without type: a call with its own id, whatever the known names", () => {
    expect(extractToolCalls(entry("rotate_keys", '{"scope": "all"}', "call_rk")).calls).toEqual([{ id: "call_rk", name: "rotate_keys", arguments: { scope: "all" } }]);
    const untyped = { id: "e_2", function: { name: "rotate_keys", arguments: { scope: "one" } } };
    expect(extractToolCalls(`Doing it: ${JSON.stringify(untyped)}`, ["other_tool"]).calls).toEqual([{ id: "e_2", name: "rotate_keys", arguments: { scope: "one" } }]);
  });

  // README, task 1, What is a call: bare JSON "is a call only if its name is a non-empty string"; "Anything else is ... not a call, and not an error".
  l2("bare JSON whose name is empty, a number or null is data: no call and no error, also with known names that include \"\"", () => {
    const bare = [{ name: "", arguments: { q: 1 } }, { name: 0, parameters: {} }, { name: null, arguments: "{}" }, { name: ["x"], arguments: {} }];
    for (const o of bare) {
      expect(extractToolCalls(o), JSON.stringify(o)).toEqual({ calls: [], errors: [] });
      expect(extractToolCalls(`data: ${JSON.stringify(o)}`), JSON.stringify(o)).toEqual({ calls: [], errors: [] });
      expect(extractToolCalls([o]), JSON.stringify(o)).toEqual({ calls: [], errors: [] });
    }
    expect(extractToolCalls({ name: "" }, [""]), 'rule: "" is never a name, even when listed').toEqual({ calls: [], errors: [] });
  });

  // README, task 1, What is a call: an explicit call "without a non-empty string name is not a call: it adds an error missing_name".
  l2("explicit calls without a usable name: an entry, a tool_use block and tags whose name is missing, empty or not a string", () => {
    const r = extractToolCalls({
      tool_calls: [
        { id: "c1", type: "function", function: { name: "", arguments: "{}" } },
        { id: "c2", type: "tool_use", name: 42, input: {} },
        { id: "c3", arguments: '{"a": 1}' },
        entry("kept_call", "{}", "c4"),
      ],
    });
    expect(r.calls.map((c) => c.name), "rule: only the named entry is a call").toEqual(["kept_call"]);
    expect(r.errors.map((e) => e.code)).toEqual(["missing_name", "missing_name", "missing_name"]);
    expect(extractToolCalls({ type: "tool_use", id: "tu_n", input: { a: 1 } }), "rule: a block without a name").toMatchObject({ calls: [], errors: [{ code: "missing_name" }] });
    const tags = extractToolCalls('<tool_call>{"name": "", "arguments": {}}</tool_call> <tool_call>{"name": 3}</tool_call> <tool_call>{"parameters": {"a": 1}}</tool_call>');
    expect([tags.calls, tags.errors.map((e) => e.code)]).toEqual([[], ["missing_name", "missing_name", "missing_name"]]);
  });

  // README, task 1, tags: "where the table would read it as bare JSON it is an explicit call: any name, no arguments key needed".
  l2("a tag's bare object is a call without an arguments key, whatever the known names; its arguments are then {}", () => {
    for (const known of [undefined, [], ["other_tool"]]) {
      const r = extractToolCalls('Listing: <tool_call>\n{"name": "list_buckets"}\n</tool_call>', known);
      expect(r, JSON.stringify(known)).toEqual({ calls: [{ id: "call_0", name: "list_buckets", arguments: {} }], errors: [] });
    }
  });

  // README, task 1, tags: "if there is none (the content is not JSON and holds no JSON value): error invalid_json, no call".
  l2("a tag holding no JSON value, or nothing at all: invalid_json and no call; the prose calls around it stay", () => {
    const r = extractToolCalls('Running <tool_call>search_docs query="retry policy"</tool_call> and {"name": "notify", "arguments": {"to": "ops"}} <tool_call></tool_call>');
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["notify", { to: "ops" }]]);
    expect(r.errors.map((e) => e.code)).toEqual(["invalid_json", "invalid_json"]);
  });

  // README, task 1, tags: "The content is JSON.parsed after trimming; if that fails, the first JSON value found in it ... is used".
  l2("a tag whose content has words around its JSON: the first JSON value in it is the call, later ones in the tag are not calls", () => {
    const r = extractToolCalls('<tool_call>I will call: {"name": "fetch_page", "arguments": {"url": "https://x.y"}} then {"name": "fetch_page", "arguments": {"url": "z"}}</tool_call>');
    expect(r).toEqual({ calls: [{ id: "call_0", name: "fetch_page", arguments: { url: "https://x.y" } }], errors: [] });
    const known = extractToolCalls('<tool_call>{"name":"a1"} {"name":"b2"}</tool_call>', ["a1", "b2"]);
    expect(known.calls.map((c) => c.name), "rule: a value inside a tag is the tag's business, not prose").toEqual(["a1"]);
  });

  // README, task 1, tags: "The tag's content ends at the first </tool_call> after the JSON value that starts the content
  // (... a { or [ whose matching bracket is found as above) ... When the content does not start with a bracket ..., it ends at the first </tool_call>."
  l2("where a tag's content ends: after its array's matching bracket; at the first </tool_call> when it starts with words", () => {
    const array = extractToolCalls('<tool_call>\n[{"name": "purge", "arguments": {"note": "</tool_call>"}}]\n</tool_call> {"name": "after", "arguments": {}}');
    expect([array.calls.map((c) => c.name), array.errors.map((e) => e.code)], "rule: the array is the content, and an array is missing_name").toEqual([["after"], ["missing_name"]]);
    const words = extractToolCalls('<tool_call>Calling: {"name": "notify", "arguments": {"msg": "</tool_call>"}}</tool_call>');
    expect([words.calls, words.errors.map((e) => e.code)], "rule: the content is cut at the first </tool_call>, and holds no complete value").toEqual([[], ["invalid_json"]]);
  });

  // README, task 1, tags: "When ... its brackets never balance, it ends at the first </tool_call>" (the first one after the tag opens).
  l2("a tag whose brackets never balance ends at the first </tool_call> after it, even with a stray </tool_call> in the prose before", () => {
    const open = extractToolCalls('Noted </tool_call> earlier. <tool_call>[{"name": "g_one", "arguments": {}}</tool_call>');
    expect([open.calls.map((c) => c.name), open.errors]).toEqual([["g_one"], []]);
    const wrong = extractToolCalls('Noted </tool_call> earlier. <tool_call>{ ] {"name": "g_two", "arguments": {}}</tool_call>');
    expect([wrong.calls.map((c) => c.name), wrong.errors]).toEqual([["g_two"], []]);
  });

  // README, task 1, tags: "Calls come in text order: prose before a tag, the tag, prose after it"; "A JSON value found is used only when it starts ... after its </tool_call>".
  l2("prose values right against a tag: one just after </tool_call>, and a tag just after a value that mentions <tool_call>", () => {
    expect(extractToolCalls('<tool_call>{"name": "first"}</tool_call>{"name": "second", "arguments": {}}').calls.map((c) => c.name)).toEqual(["first", "second"]);
    const mention = '{"name": "echo", "arguments": {"text": "<tool_call>"}}';
    expect(extractToolCalls(`${mention} <tool_call>{"name": "next"}</tool_call>`).calls.map((c) => c.name)).toEqual(["echo", "next"]);
    expect(extractToolCalls(`${mention}\n<tool_call>{"name": "next"}</tool_call>`).calls.map((c) => c.name)).toEqual(["echo", "next"]);
    expect(extractToolCalls('{"name": "plain", "arguments": {}}<tool_call>{"name": "tagged"}</tool_call>').calls.map((c) => c.name)).toEqual(["plain", "tagged"]);
  });

  // README, task 1, Finding JSON in text: "a candidate that JSON.parse ... rejects is skipped and the candidates inside it are tried instead".
  l2("a rejected candidate is skipped and its inner candidates tried, two side by side included", () => {
    const r = extractToolCalls('Draft {plan: {"name": "reindex", "arguments": {"shard": {"id": 3}}}, retry: yes} sent');
    expect(r.calls).toEqual([{ id: "call_0", name: "reindex", arguments: { shard: { id: 3 } } }]);
    const sides = extractToolCalls('[{"step": 1}{"name": "reindex", "arguments": {}}{"name": "vacuum", "arguments": {}}]');
    expect(sides.calls.map((c) => c.name), "rule: the rejected array's candidates, left to right").toEqual(["reindex", "vacuum"]);
  });

  // README, task 1, Finding JSON in text: "Outside any bracket the text is prose: quotes there mean nothing"; "The region ends when
  // its first bracket is closed, at a closer of the wrong kind ..., the scan then goes on in prose after it."
  l2("quotes in prose mean nothing: before a value, after a value that closed, after a closer of the wrong kind", () => {
    expect(extractToolCalls('Say "hi to {"name": "greet", "arguments": {"who": "Ann"}}').calls.map((c) => c.arguments)).toEqual([{ who: "Ann" }]);
    expect(extractToolCalls('{"name": "a1", "arguments": {}} it\'s "odd {"name": "b2", "arguments": {}}').calls.map((c) => c.name)).toEqual(["a1", "b2"]);
    expect(extractToolCalls('Oops [{ ] it\'s "a {"name": "c3", "arguments": {}}').calls.map((c) => c.name)).toEqual(["c3"]);
    expect(extractToolCalls('Oops {[ } so "x [{"name": "d4", "arguments": {}}]').calls.map((c) => c.name)).toEqual(["d4"]);
  });

  // README, task 1, Finding JSON in text: "A JSON array found this way contributes its object elements".
  l2("an array in prose gives its object elements, parameters alias included; a nested array in it gives nothing", () => {
    const r = extractToolCalls('Batch: [{"name": "a_op", "arguments": {}}, "skip", [{"name": "n_op", "arguments": {}}], {"name": "b_op", "parameters": {"k": 1}}] ok');
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["a_op", {}], ["b_op", { k: 1 }]]);
  });

  // README, task 1, Ids: "A call keeps its id when it has a non-empty string one ... Any other call gets call_<i>".
  l2("ids: a flat entry and a bare call keep their own id; a number, null or object id is replaced by call_<i>", () => {
    expect(extractToolCalls({ tool_calls: [{ id: "flat_1", name: "f", arguments: "{}" }, { id: 7, name: "g", arguments: {} }] }).calls.map((c) => c.id)).toEqual(["flat_1", "call_1"]);
    expect(extractToolCalls([{ id: "bare_9", name: "f", arguments: {} }, { id: null, name: "g", arguments: {} }]).calls.map((c) => c.id)).toEqual(["bare_9", "call_1"]);
    expect(extractToolCalls({ id: "solo", name: "f", parameters: {} }).calls.map((c) => c.id)).toEqual(["solo"]);
    expect(extractToolCalls({ type: "tool_use", id: { v: 1 }, name: "f", input: {} }).calls.map((c) => c.id)).toEqual(["call_0"]);
  });

  // README, task 1, Ids: "the generated one becomes call_<i>_2 (or _3, ... the first that is free)".
  l2("ids: with call_2 and call_2_2 taken, the third call gets call_2_3", () => {
    const r = extractToolCalls({ tool_calls: [entry("a", "{}", "call_2_2"), entry("b", "{}", "call_2"), entry("c", "{}"), entry("d", "{}")] });
    expect(r.calls.map((c) => c.id)).toEqual(["call_2_2", "call_2", "call_2_3", "call_3"]);
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

  // README, task 2: "absent, null, "" or a string of only whitespace: {}"; ToolCall: "argumentsError?: set only when the arguments could not be decoded".
  l2("absent arguments are {} in every shape, and a call decoded without trouble has no argumentsError key at all", () => {
    const calls = [
      ...extractToolCalls({ type: "tool_use", id: "tu_a", name: "ping_host" }).calls,
      ...extractToolCalls({ name: "ping_host" }, ["ping_host"]).calls,
      ...extractToolCalls({ tool_calls: [{ id: "c_a", type: "function", function: { name: "ping_host" } }] }).calls,
      ...extractToolCalls('<tool_call>{"name": "ping_host"}</tool_call>').calls,
      ...extractToolCalls({ name: "ping_host", arguments: '{"host": "db2"}' }).calls,
      ...extractToolCalls({ name: "ping_host", parameters: { host: "db3" } }).calls,
    ];
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ["ping_host", {}],
      ["ping_host", {}],
      ["ping_host", {}],
      ["ping_host", {}],
      ["ping_host", { host: "db2" }],
      ["ping_host", { host: "db3" }],
    ]);
    for (const call of calls) expect(Object.hasOwn(call, "argumentsError"), `${call.id}: rule: no argumentsError key`).toBe(false);
  });
});

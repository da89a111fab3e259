// Properties of extraction: any call in any shape, inside any call-free prose, comes back equal;
// nothing ever throws; data JSON is never a call; ids are deterministic and unique.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { extractToolCalls } from "@impl/02-schema-validation";
import { l2, l3 } from "../support/graded.ts";
import {
  argumentsObject,
  callFreeProse,
  generatedCall,
  nastyJson,
  nastyString,
  renderInText,
  renderMessage,
  textShape,
  trailingProse,
} from "./arbitraries.ts";

describe("1. Extract the tool calls", () => {
  l2.property("round trip: k calls in any text shape, with prose between them, come back equal and in order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(callFreeProse, generatedCall, textShape), { minLength: 1, maxLength: 4 }),
        trailingProse,
        (parts, tail) => {
          const text = parts.map(([prose, call, shape]) => `${prose} ${renderInText(call, shape)} `).join("") + tail;
          const r = extractToolCalls(text);
          expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(parts.map(([, call]) => call));
          expect(r.calls.every((c) => c.argumentsError === undefined)).toBe(true);
        },
      ),
    );
  });

  l2.property("round trip through OpenAI and Anthropic messages, ids kept or generated", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(generatedCall, fc.option(fc.stringMatching(/^(call|toolu)_[a-z0-9]{1,6}$/), { nil: undefined })), { minLength: 1, maxLength: 4 }),
        fc.constantFrom<"openai" | "anthropic">("openai", "anthropic"),
        (items, shape) => {
          const message = renderMessage(items.map(([c]) => c), items.map(([, id]) => id), shape);
          const r = extractToolCalls(message);
          expect(r.calls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(items.map(([c]) => c));
          items.forEach(([, id], i) => {
            if (id !== undefined) expect(r.calls[i].id).toBe(id);
          });
          expect(new Set(r.calls.map((c) => c.id)).size).toBe(new Set(items.map(([, id], i) => id ?? `gen${i}`)).size);
          expect(extractToolCalls(message), "rule: the same message always gives the same result").toEqual(r);
        },
      ),
    );
  });

  l2.property("JSON data without a call shape in prose is never a call", () => {
    const data = fc.oneof(
      fc.dictionary(nastyString.filter((k) => k !== "name" && k !== "tool_calls" && k !== "content" && k !== "function" && k !== "type"), nastyJson, { maxKeys: 4 }),
      fc.record({ name: nastyString, age: fc.integer(), tags: fc.array(nastyString, { maxLength: 2 }) }),
      fc.array(fc.record({ name: nastyString, value: nastyJson }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(callFreeProse, data, trailingProse, (before, value, after) => {
        const text = `${before} {"name": "real", "arguments": {}} ${JSON.stringify(value)} ${after}`;
        expect(extractToolCalls(text).calls.map((c) => c.name)).toEqual(["real"]);
      }),
    );
  });

  l2.property("with known names, only known names are calls in bare JSON", () => {
    fc.assert(
      fc.property(fc.uniqueArray(generatedCall, { minLength: 1, maxLength: 4, selector: (c) => c.name }), fc.nat(), (calls, k) => {
        const known = calls.slice(0, (k % calls.length) + 1).map((c) => c.name);
        const text = calls.map((c) => renderInText(c, "bare")).join(" and ");
        expect(extractToolCalls(text, known).calls.map((c) => c.name)).toEqual(known);
      }),
    );
  });

  l3.property("never throws on any string, and always returns arrays", () => {
    const hostile = fc.oneof(
      nastyString,
      fc.array(fc.constantFrom("{", "[", '"', "\\", "}", "]", "<tool_call>", "</tool_call>", '{"name":"f","arguments":', "x"), { maxLength: 60 }).map((p) => p.join("")),
    );
    fc.assert(
      fc.property(hostile, (text) => {
        const r = extractToolCalls(text);
        expect(Array.isArray(r.calls) && Array.isArray(r.errors)).toBe(true);
      }),
    );
  });

  l3.property("never throws on any JSON value given as the message", () => {
    fc.assert(
      fc.property(fc.oneof(nastyJson, fc.jsonValue()), (value) => {
        const r = extractToolCalls(value);
        expect(Array.isArray(r.calls) && Array.isArray(r.errors)).toBe(true);
      }),
    );
  });
});

describe("2. Decode the arguments", () => {
  l2.property("string, object and double-encoded string arguments decode to the same object", () => {
    fc.assert(
      fc.property(argumentsObject, (args) => {
        const asObject = extractToolCalls({ name: "f", arguments: args }).calls[0];
        const asString = extractToolCalls({ name: "f", arguments: JSON.stringify(args) }).calls[0];
        const twice = extractToolCalls({ name: "f", arguments: JSON.stringify(JSON.stringify(args)) }).calls[0];
        for (const call of [asObject, asString, twice]) {
          expect(call.arguments).toEqual(args);
          expect(call.argumentsError).toBeUndefined();
        }
      }),
    );
  });

  l2.property("a truncated arguments string keeps the call, with `invalid_json`", () => {
    fc.assert(
      fc.property(argumentsObject, fc.nat(), (args, cut) => {
        const full = JSON.stringify(args);
        fc.pre(full.length > 2);
        const truncated = full.slice(0, 1 + (cut % (full.length - 1)));
        fc.pre(truncated.trim() !== "");
        const call = extractToolCalls({ tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: truncated } }] }).calls[0];
        expect(call.name).toBe("f");
        expect(call.arguments).toEqual({});
        expect(call.argumentsError?.code).toBe("invalid_json");
        expect(call.argumentsError?.raw).toBe(truncated);
      }),
    );
  });
});

// Kata 1 properties: fast-check throws malformed and hostile model output at the parser and the
// dispatcher. Each property is one README rule, checked on hundreds of generated replies.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { createRegistry, dispatch, parseToolCalls, type ToolDefinition, type Value } from "@impl/01-regex-dispatch";
import { l2, l3 } from "../support/graded.ts";
import { callEach } from "../support/realm.ts";
import {
  callFreeProse, callSpec, fullWidthMix, fullWidthOf, keywordCallSpec, nastyPiece, nastyString,
  prototypeName, recase, renderCall, renderList, renderMarker, style, toolName, type CallSpec,
} from "./arbitraries.ts";
import { brief, sliceOf } from "./helpers.ts";

/** A tool that accepts exactly the arguments of `spec` and records its runs. */
function toolFor(spec: CallSpec, runs: Record<string, Value>[]): ToolDefinition {
  const params = [
    // Positional parameters get names no keyword can have (keywords never hold a space).
    ...spec.args.map((_, i) => ({ name: `arg ${i}` })),
    ...Object.keys(spec.kwargs).map((name) => ({ name, optional: true })),
  ];
  return { name: spec.name, params, run: (args) => runs.push(args) };
}

/** One call written in one of the three formats (a marker only when there are no positional args). */
const writtenCall = fc
  .tuple(callSpec, style, fc.constantFrom("call", "list", "marker"))
  .map(([spec, st, format]) => {
    if (format === "marker" && spec.args.length === 0) return { spec, text: renderMarker(spec, st) };
    if (format === "list") return { spec, text: renderList([spec], st) };
    return { spec, text: renderCall(spec, st) };
  });

describe("1. Finding calls: properties", () => {
  l2.property("round trip: any call, any style, inside call-free prose, parses back equal", () => {
    fc.assert(
      fc.property(callSpec, style, callFreeProse, callFreeProse, (spec, st, before, after) => {
        const written = renderCall(spec, st);
        const text = `${before} ${written} ${after}`;
        const result = parseToolCalls(text);
        expect(result.errors).toEqual([]);
        expect(result.calls.map(brief)).toEqual([spec]);
        expect(sliceOf(text, result.calls[0].span)).toBe(written);
        expect(result.prose).toBe(`${before}  ${after}`);
      }),
    );
  });

  l2.property("round trip through a pythonic list and a TOOL_CALL marker", () => {
    fc.assert(
      fc.property(fc.array(callSpec, { minLength: 1, maxLength: 3 }), keywordCallSpec, style, callFreeProse, (specs, markerSpec, st, before) => {
        const text = `${before} ${renderList(specs, st)}\n${renderMarker(markerSpec, st)}\n${before}`;
        const result = parseToolCalls(text);
        expect(result.errors).toEqual([]);
        expect(result.calls.map(brief)).toEqual([...specs, markerSpec]);
        expect(result.calls.map((c) => c.syntax)).toEqual([...specs.map(() => "list"), "marker"]);
        expect(result.prose).toBe(`${before} \n\n${before}`);
      }),
    );
  });

  l2.property("call-free prose, parentheses and all, holds no call and comes back as is", () => {
    fc.assert(
      fc.property(callFreeProse, (text) => {
        expect(parseToolCalls(text)).toEqual({ calls: [], errors: [], prose: text });
        expect(dispatch(text, createRegistry([])).text).toBe(text);
      }),
    );
  });

  l2.property("k calls with prose between them parse to k calls, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(writtenCall, callFreeProse), { maxLength: 5 }), callFreeProse, (pairs, first) => {
        const text = first + pairs.map(([call, prose]) => `\n${call.text} ${prose}`).join("");
        const result = parseToolCalls(text);
        expect(result.errors).toEqual([]);
        expect(result.calls.map(brief)).toEqual(pairs.map(([call]) => call.spec));
        expect(result.prose).toBe(first + pairs.map(([, prose]) => `\n ${prose}`).join(""));
      }),
    );
  });

  l2.property("full-width delimiters （ ） ， “ ” ： parse like ASCII ones", () => {
    fc.assert(
      fc.property(callSpec, style, fullWidthMix, (spec, st, mix) => {
        const ascii = { ...st, open: "(", close: ")", comma: ",", colon: ":", quote: "\"" } as const;
        const wide = fullWidthOf(ascii, mix);
        const a = parseToolCalls(renderCall(spec, ascii));
        const b = parseToolCalls(renderCall(spec, wide));
        expect(b.calls.map(brief)).toEqual(a.calls.map(brief));
        expect(b.calls.map(brief)).toEqual([spec]);
      }),
    );
  });
});

describe("2. The whitelist: properties", () => {
  l3.property("whitelist: no registered tool runs for a name that is not registered", () => {
    // Names in lower case, called as registered: case-folding has its own property (below), and
    // a registry that does not fold case must fail that one, not this one.
    const lowerName = toolName.map((n) => n.toLowerCase());
    const names = fc.uniqueArray(lowerName, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(names, fc.array(fc.oneof(lowerName, prototypeName), { maxLength: 6 }), fc.array(fc.nat()),
        (registered, others, picks) => {
          const runs = new Map<string, number>();
          const tools = registered.map((name): ToolDefinition => ({
            name, params: [], run: () => runs.set(name, (runs.get(name) ?? 0) + 1),
          }));
          const registry = createRegistry(tools);
          // Mix calls to registered names with calls to anything else (prototype names too).
          const called = [...others, ...picks.slice(0, 4).map((p) => registered[p % registered.length])];
          const text = called.map((name, i) => (i % 3 === 2 ? `TOOL_CALL: {"name": "${name}"}\n` : `${name}() `)).join("and\n");
          const result = dispatch(text, registry);

          expect(result.results, "one result per call").toHaveLength(called.length);
          for (const tool of tools) {
            const expected = called.filter((n) => n.toLowerCase() === tool.name).length;
            expect(runs.get(tool.name) ?? 0, `rule: only a registered name runs its tool: ${tool.name}`).toBe(expected);
          }
          result.results.forEach((r, i) => {
            const known = registered.includes(called[i].toLowerCase());
            expect(r.error?.code ?? "ok", `rule: a name not registered is unknown_tool: ${called[i]}`).toBe(known ? "ok" : "unknown_tool");
          });
        }),
    );
  });

  l2.property("a name's case and surrounding whitespace do not matter", () => {
    const padding = fc.constantFrom("", " ", "  ", "\t", "\n", " \t ");
    fc.assert(
      fc.property(toolName, fc.array(fc.boolean()), fc.array(fc.boolean()), padding, padding, fc.constantFrom("call", "marker", "list"),
        (name, flipsA, flipsB, left, right, format) => {
          let runs = 0;
          const registry = createRegistry([{ name: `${left}${recase(name, flipsA)}${right}`, params: [], run: () => ++runs }]);
          const called = recase(name, flipsB);
          const text = format === "call" ? `${called}()` : format === "list" ? `[${called}()]`
            : `TOOL_CALL: {"name": ${JSON.stringify(`${right}${called}${left}`)}}`;
          const result = dispatch(text, registry);
          expect(result.results.map((r) => r.ok)).toEqual([true]);
          expect(runs).toBe(1);
        }),
    );
  });
});

describe("3. Calls that cannot be read: properties", () => {
  l3.property("every strict prefix of a call cut inside its parentheses never runs", () => {
    fc.assert(
      // Lower-case names: this property is about truncation, not about case-folding.
      fc.property(callSpec.map((s) => ({ ...s, name: s.name.toLowerCase() })), style, callFreeProse, (spec, st, before) => {
        const written = renderCall(spec, st);
        const runs: Record<string, Value>[] = [];
        const registry = createRegistry([toolFor(spec, runs)]);
        // The whole call runs once: the tool really is reachable.
        expect(dispatch(`${before} ${written}`, registry).results.map((r) => r.ok)).toEqual([true]);
        expect(runs).toHaveLength(1);

        // Every cut must give one parse_error whose span ends with the text; the cuts that do not
        // are gathered and asserted once (a call is cut in hundreds of places per run).
        const openAt = spec.name.length + 1;
        const wrong: Array<{ text: string; codes: Array<string | undefined>; spanEnd?: number }> = [];
        const texts: string[] = [];
        for (let cut = openAt; cut < written.length; cut++) texts.push(`${before} ${written.slice(0, cut)}`);
        callEach(dispatch, texts.map((text) => [text, registry] as const)).forEach((result, i) => {
          const text = texts[i];
          const codes = result.results.map((r) => r.error?.code);
          const spanEnd = result.results[0]?.span.end;
          if (codes.length !== 1 || codes[0] !== "parse_error" || spanEnd !== text.length) wrong.push({ text, codes, spanEnd });
        });
        expect(wrong.slice(0, 3), "cuts that are not one parse_error ending at the text's end").toEqual([]);
        expect(runs).toHaveLength(1);
      }),
    );
  });
});

describe("6. Robustness: properties", () => {
  /** Texts that look like calls and are broken in random places. */
  const mangledCall = fc
    .tuple(writtenCall, fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.oneof(nastyPiece, nastyString)), { maxLength: 4 }))
    .map(([{ text }, edits]) =>
      edits.reduce((t, [at, remove, insert]) => {
        const i = at % (t.length + 1);
        return t.slice(0, i) + insert + t.slice(i + remove);
      }, text));

  l3.property("never throws on any string, and every span lies inside the text, in order", () => {
    const registry = createRegistry([{ name: "f", params: [], run: () => 1 }]);
    fc.assert(
      fc.property(fc.oneof(mangledCall, nastyString, fc.string({ unit: "binary" }), callFreeProse), (text) => {
        const parsed = parseToolCalls(text);
        const dispatched = dispatch(text, registry);
        expect(typeof parsed.prose).toBe("string");
        expect(dispatched.text).toBe(parsed.calls.length + parsed.errors.length === 0 ? text : parsed.prose);
        expect(dispatched.results).toHaveLength(parsed.calls.length + parsed.errors.length);
        let last = 0;
        for (const r of dispatched.results) {
          expect(r.span.start).toBeGreaterThanOrEqual(last);
          expect(r.span.end).toBeLessThanOrEqual(text.length);
          last = r.span.end;
        }
      }),
    );
  });
});

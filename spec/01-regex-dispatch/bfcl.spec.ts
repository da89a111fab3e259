// Kata 1 against real data: the ground-truth calls of the Berkeley Function Calling Leaderboard
// (spec/data/bfcl, Apache-2.0), rendered the three ways a model writes them, must parse back to
// exactly those names and values, and dispatch through a registry built from BFCL's own tool docs.
import { readFileSync } from "node:fs";
import { describe, expect } from "vitest";
import { createRegistry, dispatch, parseToolCalls, type ToolDefinition, type Value } from "@impl/01-regex-dispatch";
import { l1, l2 } from "../support/graded.ts";
import { callEach } from "../support/realm.ts";
import { asciiStyle, objectOf, renderCall, renderList, renderMarker, type CallSpec } from "./arbitraries.ts";
import { brief } from "./helpers.ts";

const CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple"] as const;

interface Entry {
  id: string;
  calls: CallSpec[];
  functions: { name: string; parameters: { properties?: Record<string, unknown>; required?: string[] } }[];
}

const jsonLines = (path: string): any[] =>
  readFileSync(new URL(`../data/bfcl/${path}`, import.meta.url), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

/** One correct call per ground truth: the first acceptable value of each parameter ("" = omit). */
function loadCategory(category: string): Entry[] {
  const questions = new Map(jsonLines(`BFCL_v4_${category}.json`).map((q) => [q.id, q]));
  return jsonLines(`possible_answer/BFCL_v4_${category}.json`).map((answer) => ({
    id: answer.id,
    functions: questions.get(answer.id).function,
    calls: answer.ground_truth.map((call: Record<string, Record<string, Value[]>>) => {
      const [name, params] = Object.entries(call)[0];
      const kwargs = Object.entries(params).flatMap(([key, options]) => {
        const chosen = options.find((option) => option !== "");
        return chosen === undefined ? [] : [[key, chosen] as const];
      });
      return { name, args: [], kwargs: objectOf(kwargs) };
    }),
  }));
}

const entries = CATEGORIES.flatMap(loadCategory);
const allCalls = entries.flatMap((e) => e.calls);
const python = { ...asciiStyle, python: true };

describe("1. Finding calls: real BFCL ground truth", () => {
  l1("the data is there: hundreds of ground-truth calls, dotted names among them", () => {
    expect(entries.length).toBeGreaterThanOrEqual(900);
    expect(allCalls.some((c) => c.name === "math.factorial")).toBe(true);
    expect(allCalls.filter((c) => c.name.includes(".")).length).toBeGreaterThan(100);
    expect(parseToolCalls(renderCall(allCalls[0], python)).calls.map(brief)).toEqual([allCalls[0]]);
  });

  // Each of these reads every entry: one parse per entry, all of them in one callEach (realm.ts).
  l1("every ground truth written as name(k=v, ...) in prose parses back exactly", () => {
    const texts = entries.map((entry) => `Sure, let me help (one moment).\n${entry.calls.map((c) => renderCall(c, python)).join("\nthen ")}\nDone!`);
    const results = callEach(parseToolCalls, texts.map((text) => [text] as const));
    for (const [i, entry] of entries.entries()) {
      const result = results[i];
      expect(result.errors, entry.id).toEqual([]);
      expect(result.calls.map(brief), entry.id).toEqual(entry.calls);
      expect(result.prose, entry.id).toBe(`Sure, let me help (one moment).\n${entry.calls.map(() => "").join("\nthen ")}\nDone!`);
    }
  });

  l2("every ground truth written as a pythonic list parses back exactly", () => {
    const results = callEach(parseToolCalls, entries.map((entry) => [`${renderList(entry.calls, python)}`] as const));
    for (const [i, entry] of entries.entries()) {
      const result = results[i];
      expect(result.calls.map(brief), entry.id).toEqual(entry.calls);
      expect(result.calls.every((c) => c.syntax === "list"), entry.id).toBe(true);
      expect(result.prose, entry.id).toBe("");
    }
  });

  l2("every ground truth written as TOOL_CALL lines inside prose parses back exactly", () => {
    const results = callEach(parseToolCalls, entries.map((entry) => [`I'll call the tools now:\n${entry.calls.map((c) => renderMarker(c)).join("\n")}\n(results follow)`] as const));
    for (const [i, entry] of entries.entries()) {
      const result = results[i];
      expect(result.calls.map(brief), entry.id).toEqual(entry.calls);
      expect(result.calls.every((c) => c.syntax === "marker"), entry.id).toBe(true);
    }
  });
});

describe("4. Dispatch: real BFCL tools", () => {
  // A few BFCL answers name a parameter that the tool's own doc lacks (BFCL accepts omitting it
  // there); they are left out of this one test, which checks binding against the docs.
  const consistent = entries.filter((entry) =>
    entry.calls.every((call) => {
      const doc = entry.functions.find((f) => f.name === call.name);
      const properties = Object.keys(doc?.parameters.properties ?? {});
      return doc !== undefined && Object.keys(call.kwargs).every((k) => properties.includes(k))
        && (doc.parameters.required ?? []).every((k) => Object.hasOwn(call.kwargs, k));
    }));

  l2("every ground truth dispatches through a registry of that question's BFCL functions", () => {
    expect(consistent.length).toBeGreaterThan(entries.length * 0.9);
    const received = consistent.map(() => [] as { name: string; args: Record<string, Value> }[]);
    const registries = callEach(createRegistry, consistent.map((entry, i) => [entry.functions.map((f): ToolDefinition => {
      const required = new Set(f.parameters.required ?? []);
      return {
        name: f.name,
        params: Object.keys(f.parameters.properties ?? {}).map((name) => ({ name, optional: !required.has(name) })),
        run: (args) => received[i].push({ name: f.name, args }),
      };
    })] as const));
    const results = callEach(dispatch, consistent.map((entry, i) => [entry.calls.map((c) => renderCall(c, python)).join(" "), registries[i]] as const));
    for (const [i, entry] of consistent.entries()) {
      const result = results[i];
      // BFCL names keep their capitals ("EuclideanDistance.calculate"): a call written exactly as
      // the tool is named must be found, so a registry that folds case on one side only fails here.
      expect(result.results.map((r) => r.error ?? "ok"), `${entry.id}: a call to a registered tool, written with the tool's own name (capitals included), runs`).toEqual(entry.calls.map(() => "ok"));
      expect(received[i], `${entry.id}: the tool gets the call's arguments`).toEqual(entry.calls.map((c) => ({ name: c.name, args: c.kwargs })));
    }
  });
});

// The benchmark figures the pages show are docs/benchmarks.json's. Every block between the bench-*
// markers of docs/benchmarks.md, its zh-CN twin and the two READMEs must be what
// scripts/lib/bench/results.ts renders from the JSON: a figure edited by hand, or a JSON written
// without its pages, fails here. The comparison leaves out a Markdown table's padding and the
// dashes of its rule row, which carry no figure, so that a new table layout alone fails nothing.
// `npm run bench -- --write` writes the JSON and the blocks together; `--render` renders the blocks again.
import { existsSync, readFileSync, statSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { PAGES, RESULTS_JSON, readBlock, targets, type BenchResults } from "../lib/bench/results.ts";

/** The most a benchmark page may weigh, in bytes of UTF-8. */
const MAX_BYTES = 17 * 1024;

if (!existsSync(RESULTS_JSON)) throw new Error(`${relative(PROJECT_ROOT, RESULTS_JSON)} is missing: npm run bench -- --write writes it`);
const results = JSON.parse(readFileSync(RESULTS_JSON, "utf8")) as BenchResults;

/** Text without the layout of its tables: runs of spaces as one, none around a cell's bar, rule rows alike. */
function withoutLayout(text: string): string {
  return text
    .split("\n")
    .map((line) => (/^\|[\s|:-]+\|$/.test(line.trim()) ? "|---|" : line.replace(/[ \t]+/g, " ").replace(/ ?\| ?/g, "|").trim()))
    .join("\n");
}

describe("docs/benchmarks.json", () => {
  test("holds every part, so that every target has a figure", () => {
    expect(Object.keys(results.parts).sort()).toEqual(["grader", "kata1", "kata2", "kata3", "kata4"]);
    for (const target of targets(results)) expect(target.measured, `${target.id}: ${target.figure.en}`).toBe(true);
  });
});

for (const page of PAGES) {
  const name = relative(PROJECT_ROOT, page.path);
  describe(name, () => {
    for (const [block, render] of page.blocks) {
      test(`the ${block} block is what docs/benchmarks.json renders`, () => {
        const shown = readBlock(readFileSync(page.path, "utf8"), block);
        expect(shown, `${name} has no <!-- ${block}:start --> ... <!-- ${block}:end --> markers`).toBeDefined();
        expect(withoutLayout(shown!)).toBe(withoutLayout(render(results, page.lang)));
      });
    }
    if (name.startsWith("docs/")) {
      test(`weighs at most ${MAX_BYTES / 1024} KB`, () => {
        expect(statSync(page.path).size).toBeLessThanOrEqual(MAX_BYTES);
      });
    }
  });
}

test("the layout-free comparison still sees a figure", () => {
  expect(withoutLayout("| a   | 0.23x |\n|-----|------:|")).toBe("|a|0.23x|\n|---|");
  expect(withoutLayout("| a | 0.24x |")).not.toBe(withoutLayout("| a   | 0.23x |"));
});

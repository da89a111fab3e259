// Every repository path a document names in code quotes (`scripts/lib/stages.ts`, `spec/data/`)
// is in the repository: a reader who opens one finds it. Patterns (`NN-name`, `*`) are not paths.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";

const markdown = (dir: string) => readdirSync(join(PROJECT_ROOT, dir)).filter((f) => f.endsWith(".md")).map((f) => (dir === "." ? f : `${dir}/${f}`));
const DOCS = [
  ...markdown("."),
  ...markdown("docs"),
  ...readdirSync(join(PROJECT_ROOT, "katas")).flatMap((k) => markdown(`katas/${k}`)),
  ...readdirSync(join(PROJECT_ROOT, "spec"), { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(PROJECT_ROOT, "spec", e.name, "NOTES.md"))).map((e) => `spec/${e.name}/NOTES.md`),
];
const PATH = /`((?:scripts|spec|docs|katas|solutions)\/[A-Za-z0-9_./-]+)`/g;

describe("paths the documents name", () => {
  test("the check reads the documents and finds paths in them", () => {
    expect(DOCS).toContain("docs/benchmarks.md");
    expect([...readFileSync(join(PROJECT_ROOT, "README.md"), "utf8").matchAll(PATH)].length).toBeGreaterThan(10);
  });
  for (const doc of DOCS) {
    test(`${doc}: every path it names exists`, () => {
      const missing = [...readFileSync(join(PROJECT_ROOT, doc), "utf8").matchAll(PATH)]
        .map((m) => m[1])
        .filter((path) => !/NN|\/\.\.\.|\.\.\.$/.test(path) && !existsSync(join(PROJECT_ROOT, path.replace(/\/$/, ""))));
      expect(missing).toEqual([]);
    });
  }
});

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseHints } from "../lib/hints.ts";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { listKatas } from "../lib/grader/katas.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { nextTest } from "../lib/grader/next-test.ts";
import { expectedTest } from "../lib/grader/expected.ts";
import { runCommand } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-hints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const read = (kata: string, file: string) => readFileSync(join(PROJECT_ROOT, "katas", kata, file), "utf8");

describe("hints", () => {
  test("where the first hint says to start, the first test a candidate meets is: the file of that task's function", () => {
    for (const kata of listKatas()) {
      const first = nextTest(manifest.katas[kata.id].tests.map((entry) => ({ ...expectedTest(kata, entry), status: "fail" as const })))!;
      // "## 1. Finding calls: `parseToolCalls`": the function the task is about, and the file index.ts takes it from.
      const fn = new RegExp(`^## ${first.taskId}\\. [^\\n]*\`(\\w+)\``, "m").exec(read(kata.id, "README.md"))?.[1];
      const file = fn && new RegExp(`export \\{[^}]*\\b${fn}\\b[^}]*\\} from "\\./([\\w.-]+)"`).exec(read(kata.id, "index.ts"))?.[1];
      for (const [hints, says] of [["HINTS.md", /Start with `([\w.-]+\.ts)`/], ["HINTS.zh-CN.md", /先写 `([\w.-]+\.ts)`/]] as const) {
        const named = says.exec(parseHints(read(kata.id, hints))[0].body)?.[1];
        if (named && file) expect(named, `${kata.id}/${hints}: the first test is ${first.name}`).toBe(file);
      }
    }
    // The check above bites where it should: kata 1's first hint names a starting file.
    expect(/Start with `parse\.ts`/.test(read("01-regex-dispatch", "HINTS.md"))).toBe(true);
  });

  test("each '## ' section is one hint, in order, in either language", () => {
    const hints = parseHints("# Kata 1 hints\n\nintro\n\n## Hint 1: start small\nbody one\n\n## 提示 2：括号\n第二条\n");
    expect(hints).toEqual([
      { title: "Hint 1: start small", body: "body one" },
      { title: "提示 2：括号", body: "第二条" },
    ]);
  });

  test("in Chinese, every line is Chinese, and the next command keeps --lang zh-CN", async () => {
    const env = { TUK_HINT_STATE: join(dir, "state.json"), LANG: "C" };
    const first = await runCommand("scripts/hint.ts", ["1", "--lang", "zh-CN"], env);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/（第 1 条，共 \d+ 条）/);
    expect(first.out).toContain("还是卡住？下一条：npm run hint -- 1 --lang zh-CN");
    expect(first.out).not.toMatch(/Stuck still|That was the last|\(1 of/);
    const english = await runCommand("scripts/hint.ts", ["1"], env);
    expect(english.out).toMatch(/\(2 of \d+\)/);
    expect(english.out).toContain("Stuck still? The next one: npm run hint -- 1\n");
  });
});

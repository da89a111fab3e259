import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseHints } from "../lib/hints.ts";
import { runCommand } from "./support/run-script.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-hints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("hints", () => {
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

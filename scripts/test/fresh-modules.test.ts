// The grader runs a kata's spec files one after another in shared test processes; the first setup
// file (spec/support/setup/fresh-modules.ts) must make each file start as in a process of its own.
// Checked on a scratch project: two spec files in one process, the first leaving module state, fake
// timers and a stubbed global behind; the second must see none of it.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";

const dir = join(PROJECT_ROOT, ".grade", `fresh-modules-test-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runScratch(setupFiles: string[]): { status: number | null; output: string } {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "spec"), { recursive: true });
  writeFileSync(join(dir, "vitest.config.ts"), `import { defineConfig } from "vitest/config";
// One process for both files, a.spec.ts first: as the grader runs a kata's files.
class ByName {
  async shard(files) { return files; }
  async sort(files) { return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId)); }
}
export default defineConfig({
  test: { include: ["spec/*.spec.ts"], pool: "forks", isolate: false, maxWorkers: 1, sequence: { sequencer: ByName }, setupFiles: ${JSON.stringify(setupFiles)} },
});
`);
  writeFileSync(join(dir, "counter.ts"), "let calls = 0;\nexport const next = () => ++calls;\n");
  writeFileSync(join(dir, "spec", "a.spec.ts"), `import { expect, test, vi } from "vitest";
import { next } from "../counter.ts";
test("a leaves state behind", () => {
  expect(next()).toBe(1);
  vi.useFakeTimers();
  vi.stubGlobal("leftOver", 1);
});
`);
  writeFileSync(join(dir, "spec", "b.spec.ts"), `import { expect, test, vi } from "vitest";
import { next } from "../counter.ts";
test("module state is new", () => expect(next()).toBe(1));
test("timers are real", () => expect(vi.isFakeTimers()).toBe(false));
test("no stubbed global is left", () => expect((globalThis as { leftOver?: number }).leftOver).toBeUndefined());
`);
  const run = spawnSync(process.execPath, [join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs"), "run"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("spec/support/setup/fresh-modules.ts", () => {
  test("a spec file meets fresh modules, real timers and no stubbed global, after another in the same process", { timeout: 60_000 }, () => {
    const fresh = runScratch([join(PROJECT_ROOT, "spec", "support", "setup", "fresh-modules.ts")]);
    expect(fresh.status, fresh.output).toBe(0);
    // Without it, the same two files in the same process do leak: the check above can fail.
    const without = runScratch([]);
    expect(without.status, without.output).not.toBe(0);
    for (const name of ["module state is new", "timers are real", "no stubbed global is left"]) expect(without.output).toMatch(new RegExp(`(FAIL|×).*${name}`));
  });
});

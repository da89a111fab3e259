// Which specs a mutation run sets against the mutants: a kata's visible specs by default, its bank
// alone with `npm run mutate -- --bank-only` (MUTATE_SPECS=bank), never both, never another kata's.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";

const KATA = "03-agent-loop";
const vitest = join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");

function listed(env: Record<string, string>): string[] {
  const r = spawnSync(process.execPath, [vitest, "list", "--filesOnly", "--config", "scripts/lib/mutation/vitest.config.ts"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    env: { ...process.env, KATA_IMPL: "solutions", MUTATE_KATA: KATA, GRADE_BANK: "", ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split("\n").map((l) => l.trim()).filter((l) => l.endsWith(".spec.ts")).sort();
}

const inFolder = (folder: string) => readdirSync(join(PROJECT_ROOT, folder)).filter((f) => f.endsWith(".spec.ts")).map((f) => `${folder}/${f}`).sort();

describe("the specs a mutation run uses", () => {
  test("by default the kata's visible specs, and no bank file", { timeout: 60_000 }, () => {
    expect(listed({})).toEqual(inFolder(`spec/${KATA}`));
  });

  test("with MUTATE_SPECS=bank (--bank-only) the kata's bank alone", { timeout: 60_000 }, () => {
    const bank = inFolder(`spec/${KATA}/bank`);
    expect(bank.length).toBeGreaterThan(0);
    expect(listed({ MUTATE_SPECS: "bank" })).toEqual(bank);
  });
});

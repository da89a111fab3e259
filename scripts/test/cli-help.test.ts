import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";

/** Every `npm run` script that is one of ours (tsx scripts/NAME.ts), by its npm name. */
const scripts = Object.entries(JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")).scripts as Record<string, string>)
  .map(([name, command]) => [name, /^tsx (scripts\/[\w-]+\.ts)$/.exec(command)?.[1]] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

function run(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe("every script", () => {
  test("the list is the project's scripts", () => {
    expect(scripts.map(([name]) => name)).toEqual(expect.arrayContaining(["test", "grade", "watch", "hint", "compare", "pack:candidate", "live", "bench", "mutate", "manifest", "test:browser"]));
  });

  test("--help prints a usage and exits 0; an unknown option is a clear error with exit code 2", { timeout: 60_000 }, async () => {
    const results = await Promise.all(scripts.map(async ([name, script]) => ({ name, help: await run(script, ["--help"]), wrong: await run(script, ["--no-such-option"]) })));
    for (const { name, help, wrong } of results) {
      expect(help.code, `${name} --help:\n${help.out}`).toBe(0);
      expect(help.out, name).toMatch(/Usage: /);
      expect(wrong.code, `${name} --no-such-option:\n${wrong.out}`).toBe(2);
      expect(wrong.out, name).toMatch(/no-such-option/);
      expect(wrong.out, name).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
  });
});

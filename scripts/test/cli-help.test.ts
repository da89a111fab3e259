import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { runCommand, runMain, type Outcome } from "./support/run-script.ts";

/** Every `npm run` script that is one of ours (tsx scripts/NAME.ts), by its npm name. */
const scripts = Object.entries(JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")).scripts as Record<string, string>)
  .map(([name, command]) => [name, /^tsx (scripts\/[\w-]+\.ts)$/.exec(command)?.[1]] as const)
  .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);

/** A script that exports `main(argv)` runs only when started as a command (scripts/lib/cli-main.ts). */
const exportsMain = (script: string) => /^export (const|async function|function) main\b/m.test(readFileSync(join(PROJECT_ROOT, script), "utf8"));

describe("every script", () => {
  test("the list is the project's scripts", () => {
    expect(scripts.map(([name]) => name)).toEqual(expect.arrayContaining(["test", "grade", "watch", "hint", "compare", "pack:candidate", "live", "bench", "mutate", "manifest", "test:browser"]));
  });

  test("--help prints a usage and exits 0; an unknown option is a clear error with exit code 2", { timeout: 60_000 }, async () => {
    // Scripts with a main(argv) are called in this process, one after the other (they share the
    // console); the other (self-test) is started as a command meanwhile.
    const [callable, commands] = [scripts.filter(([, s]) => exportsMain(s)), scripts.filter(([, s]) => !exportsMain(s))];
    expect(commands.map(([name]) => name).sort()).toEqual(["test"]);
    // A temp folder of their own: neither call has any work to do, so none may leave anything in it.
    const temp = mkdtempSync(join(tmpdir(), "tuk-cli-help-"));
    const tmpBefore = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    const results = [];
    try {
      const started = Promise.all(commands.map(async ([name, script]) => ({ name, help: await runCommand(script, ["--help"]), wrong: await runCommand(script, ["--no-such-option"]) })));
      for (const [name, script] of callable) results.push({ name, help: await runMain(script, ["--help"]), wrong: await runMain(script, ["--no-such-option"]) });
      results.push(...(await started));
      // tsx keeps its compile cache there (tsx-<uid>) on purpose: a cache, not a leftover.
      const left = readdirSync(temp).filter((name) => !/^tsx-\d+$/.test(name));
      expect(left, "left in the temp folder by --help or a wrong option").toEqual([]);
    } finally {
      if (tmpBefore === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpBefore;
      rmSync(temp, { recursive: true, force: true });
    }
    expect(results).toHaveLength(scripts.length);
    for (const { name, help, wrong } of results) {
      expect(help.code, `${name} --help:\n${help.out}`).toBe(0);
      expect(help.out, name).toMatch(/Usage: /);
      expect(wrong.code, `${name} --no-such-option:\n${wrong.out}`).toBe(2);
      expect(wrong.out, name).toMatch(/no-such-option/);
      expect(wrong.out, name).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
  });

  test("a script with a main(argv) runs it when started as a command, and only then", { timeout: 30_000 }, async () => {
    // The entry check of scripts/lib/cli-main.ts: started through tsx's command (a second node
    // process whose argv[1] is the script), the script runs; imported, it does not (above).
    const [name, script] = scripts.find(([n]) => n === "hint")!;
    const r = await new Promise<Outcome>((resolve) => {
      const child = spawn(process.execPath, [join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), script, "--no-such-option"], { cwd: PROJECT_ROOT });
      let out = "";
      child.stderr.on("data", (chunk) => (out += chunk));
      child.on("close", (code) => resolve({ code, out }));
    });
    expect([r.code, r.out.trim()], name).toEqual([2, "hint: unknown option --no-such-option (known: --reset, --lang)"]);
  });
});

// npm run compare -- [--kata N] [--impl DIR]: the candidate beside the reference, test by test,
// then the speed ratio (candidate time / reference time) on each kata's benchmark inputs.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { integerFlag, parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, runAsCommand, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT, resolveImplRoot } from "./lib/impl-root.ts";
import { listKatas, selectKatas, type Kata } from "./lib/grader/katas.ts";
import { LEVEL_FLAG, levelsNote, parseLevels } from "./lib/grader/levels.ts";
import { loadManifest } from "./lib/grader/manifest.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { levelTag, styleFor } from "./lib/grader/report-terminal.ts";
import { gradeKata } from "./lib/grader/grade-katas.ts";
import type { TestResult } from "./lib/grader/test-result.ts";
import { formatRatio } from "./lib/compare/ratio.ts";
import { compareSpeed } from "./lib/compare/speed.ts";

const FLAGS: Record<string, FlagSpec> = {
  impl: { value: true, valueName: "DIR", description: "the candidate's code: katas (default) or another checkout" },
  kata: { value: true, valueName: "LIST", description: "compare only these katas: 1,3" },
  seed: { value: true, valueName: "N", description: "fast-check seed (the same for both sides)" },
  level: LEVEL_FLAG,
  all: { value: false, description: "list every test, not only those where the two differ" },
  "no-speed": { value: false, description: "skip the speed comparison" },
};

const mark = (t: TestResult | undefined) => (!t ? " " : t.status === "pass" ? "✓" : t.status === "fail" ? "✗" : "!");

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("compare", () => run(argv));

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run compare -- [--kata N] [--impl DIR] [--level LIST]", "Compares an implementation with the reference: test by test, then speed.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  let candidateRoot: string;
  let referenceRoot: string;
  try {
    candidateRoot = resolveImplRoot((args.flags.get("impl") as string | undefined) ?? "katas", process.cwd());
    referenceRoot = resolveImplRoot("solutions");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let katas = selectKatas(listKatas(), args.flags.get("kata") as string | undefined);
  const manifest = loadManifest();
  if (!manifest) throw new UsageError("spec/manifest.json is missing");
  // --level: both sides run and are counted on the chosen levels' tests alone.
  const levels = parseLevels(args.flags.get("level"));
  const only = levels ? chooseTests(manifest, katas, undefined, false, levels) : undefined;
  if (only) katas = katas.filter((kata) => only.has(kata.id));
  const seed = integerFlag(args, "seed", -(2 ** 31), 2 ** 31 - 1) ?? Math.floor(Math.random() * 2 ** 31);
  const style = styleFor(process.stdout);
  const workDir = mkdtempSync(join(tmpdir(), "tuk-compare-"));
  console.log(`Comparing ${candidateRoot} with the reference · seed ${seed}`);
  let explained = false;
  if (levels) console.log(style.yellow(`! ${levelsNote(levels)}`));
  try {
    for (const kata of katas) {
      const entry = manifest.katas[kata.id];
      if (!entry) continue;
      // Both sides at once, each with its own scratch folder (report and progress files).
      const side = (name: string, implRoot: string) => {
        const dir = join(workDir, `${kata.id}-${name}`);
        mkdirSync(dir);
        return gradeKata(kata, entry, { seed, timeoutMs: 60_000, workDir: dir, includeBank: false, implRoot, only: only?.get(kata.id) });
      };
      const [mine, reference] = await Promise.all([side("yours", candidateRoot), side("reference", referenceRoot)]);
      const passing = (tests: TestResult[]) => tests.filter((t) => t.status === "pass").length;
      console.log(`\n${style.bold(kata.id)}   you: ${passing(mine.tests)}/${mine.tests.length}   reference: ${passing(reference.tests)}/${reference.tests.length}${levels ? `   (${levels.join(", ")} only)` : ""}`);
      console.log(style.dim("  you ref  test"));
      let shown = 0;
      for (const test of mine.tests) {
        const ref = reference.tests.find((t) => t.name === test.name);
        if (!args.flags.has("all") && test.status === ref?.status) continue;
        shown++;
        console.log(`   ${mark(test)}   ${mark(ref)}   ${test.name} ${style.dim(levelTag(test))}${test.summary ? style.dim(`\n            ${test.summary}`) : ""}`);
      }
      if (shown === 0) console.log("   (the same verdict on every test)");

      if (args.flags.has("no-speed")) continue;
      const speed = await compareSpeed(kata.id, candidateRoot, referenceRoot, join(workDir, `${kata.id}-speed`));
      if (typeof speed === "string") {
        console.log(`  speed: ${speed}`);
        continue;
      }
      if (speed.length === 0) {
        console.log(style.dim("  speed: this kata has no benchmark inputs"));
        continue;
      }
      // How the figures were made, where they are printed, once (docs/benchmarks.md has the details).
      if (!explained) {
        console.log(style.dim("  speed: your time / reference time (below 1 means faster), in brackets the range the ratio can be"));
        console.log(style.dim("  trusted to lie in. Both sides are bundled to JavaScript the same way and measured in a confined"));
        console.log(style.dim("  process (it reads only the staged code; no network, no file written, no process started), each in a"));
        console.log(style.dim("  worker of its own, in rounds that alternate which goes first (CPU time unless the case waits on"));
        console.log(style.dim("  timers), in two processes (one starts with yours, one with the reference)."));
        explained = true;
      } else console.log(style.dim("  speed: your time / reference time (as above)"));
      for (const s of speed) {
        if ("error" in s) {
          console.log(`   error: ${s.error.split("\n")[0]}  ${s.name}`);
          continue;
        }
        console.log(`   ${formatRatio(s)}  ${s.name} ${style.dim(`(reference ${s.referenceMs.toFixed(3)} ms, ${s.clock === "cpu" ? "CPU" : "wall"} time)`)}`);
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return 0;
}

if (isEntry(import.meta.url)) runAsCommand("compare", main);

// npm run compare -- [--kata N] [--impl DIR]: the candidate beside the reference, test by test,
// then the speed ratio (candidate time / reference time) on each kata's benchmark inputs.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { integerFlag, parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { PROJECT_ROOT, resolveImplRoot } from "./lib/impl-root.ts";
import { listKatas, selectKatas, type Kata } from "./lib/grader/katas.ts";
import { LEVEL_FLAG, levelsNote, parseLevels } from "./lib/grader/levels.ts";
import { loadManifest } from "./lib/grader/manifest.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { styleFor } from "./lib/grader/report-terminal.ts";
import { gradeKata } from "./lib/grader/run-kata.ts";
import type { TestResult } from "./lib/grader/test-result.ts";
import type { Measurement } from "./lib/bench/measure.ts";

const FLAGS: Record<string, FlagSpec> = {
  impl: { value: true, valueName: "DIR", description: "the candidate's code: katas (default) or another checkout" },
  kata: { value: true, valueName: "LIST", description: "compare only these katas: 1,3" },
  seed: { value: true, valueName: "N", description: "fast-check seed (the same for both sides)" },
  level: LEVEL_FLAG,
  all: { value: false, description: "list every test, not only those where the two differ" },
  "no-speed": { value: false, description: "skip the speed comparison" },
};

type SpeedResult = Measurement | { name: string; error: string };

function measureSpeed(kata: Kata, implRoot: string): Promise<SpeedResult[] | string> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/lib/compare/speed-child.ts", kata.id, implRoot, "200"], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out = (out + c.toString()).slice(-1_000_000)));
    child.stderr.on("data", () => {});
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }, 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").at(-1) ?? "";
      try {
        resolvePromise(JSON.parse(last) as SpeedResult[]);
      } catch {
        resolvePromise(code === null ? "stopped after 60 s" : `the benchmark did not run (exit ${code})`);
      }
    });
  });
}

const mark = (t: TestResult | undefined) => (!t ? " " : t.status === "pass" ? "✓" : t.status === "fail" ? "✗" : "!");

async function main(argv: string[]): Promise<number> {
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
        console.log(`   ${mark(test)}   ${mark(ref)}   ${test.name} ${style.dim(`[${test.level}]`)}${test.summary ? style.dim(`\n            ${test.summary}`) : ""}`);
      }
      if (shown === 0) console.log("   (the same verdict on every test)");

      if (args.flags.has("no-speed")) continue;
      const [mySpeed, refSpeed] = [await measureSpeed(kata, candidateRoot), await measureSpeed(kata, referenceRoot)];
      if (typeof mySpeed === "string" || typeof refSpeed === "string") {
        console.log(`  speed: ${typeof mySpeed === "string" ? `yours: ${mySpeed}` : ""} ${typeof refSpeed === "string" ? `reference: ${refSpeed}` : ""}`);
        continue;
      }
      if (refSpeed.length === 0) {
        console.log(style.dim("  speed: this kata has no benchmark inputs"));
        continue;
      }
      console.log(style.dim("  speed (your time / reference time; below 1 means faster)"));
      for (const ref of refSpeed) {
        const yours = mySpeed.find((m) => m.name === ref.name);
        if ("error" in ref) continue;
        const ratio = yours && !("error" in yours) ? `${(yours.msPerOp / ref.msPerOp).toFixed(2)}x` : `error: ${yours && "error" in yours ? yours.error.split("\n")[0] : "not measured"}`;
        console.log(`   ${ratio.padStart(8)}  ${ref.name} ${style.dim(`(reference ${ref.msPerOp.toFixed(3)} ms)`)}`);
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError) {
      console.error(`compare: ${error.message}`);
      process.exit(2);
    }
    console.error(`compare: ${(error as Error).stack ?? error}`);
    process.exit(3);
  },
);

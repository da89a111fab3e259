// npm run watch -- N: re-grades kata N on every save and says what to fix next.
import { watch } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { resolveImplRoot } from "./lib/impl-root.ts";
import { listKatas, selectKatas, type Kata } from "./lib/grader/katas.ts";
import { loadManifest, type KataManifest } from "./lib/grader/manifest.ts";
import { styleFor } from "./lib/grader/report-terminal.ts";
import { gradeKata } from "./lib/grader/run-kata.ts";

const FLAGS: Record<string, FlagSpec> = {
  impl: { value: true, valueName: "DIR", description: "code to watch: katas (default) or another checkout" },
  once: { value: false, description: "grade once and exit (no watching)" },
};

/** Editors write a file in several steps; wait for the burst to end before grading. */
const SETTLE_MS = 120;

async function gradeAndReport(kata: Kata, manifest: KataManifest, implRoot: string): Promise<void> {
  const style = styleFor(process.stdout);
  const workDir = mkdtempSync(join(tmpdir(), "tuk-watch-"));
  try {
    const started = Date.now();
    const run = await gradeKata(kata, manifest, { implRoot, seed: Math.floor(Math.random() * 2 ** 31), timeoutMs: 30_000, workDir, includeBank: false });
    const passing = run.tests.filter((t) => t.status === "pass").length;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const colour = passing === run.tests.length ? style.green : passing === 0 ? style.red : style.yellow;
    console.log(`\n${new Date().toLocaleTimeString()}  ${kata.id}: ${colour(`${passing} of ${run.tests.length} passing`)} ${style.dim(`(${seconds} s)`)}`);
    for (const problem of run.problems) console.log(`  ${style.red("!")} ${problem}`);
    const next = run.tests.find((t) => t.status !== "pass");
    if (!next) {
      console.log(style.green("  All passing. Grade everything: npm run grade"));
      return;
    }
    console.log(`  next: ${next.name} ${style.dim(`[${next.level}]`)}`);
    if (next.summary) console.log(`        ${next.summary}`);
    if (next.property?.counterexample) console.log(style.dim(`        counterexample: ${next.property.counterexample.slice(0, 300)}`));
    console.log(style.dim(`  stuck? npm run hint -- ${kata.number}`));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run watch -- N [--impl DIR] [--once]", "Re-grades kata N every time a file of it is saved.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  const [kataArg, extra] = args.positionals;
  if (kataArg === undefined) throw new UsageError("which kata? for example: npm run watch -- 1");
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  const [kata] = selectKatas(listKatas(), kataArg);
  let implRoot: string;
  try {
    implRoot = resolveImplRoot((args.flags.get("impl") as string | undefined) ?? "katas", process.cwd());
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const manifest = loadManifest()?.katas[kata.id];
  if (!manifest) throw new UsageError(`spec/manifest.json has no ${kata.id}: run npm run manifest`);

  await gradeAndReport(kata, manifest, implRoot);
  if (args.flags.has("once")) return 0;

  const folder = join(implRoot, kata.id);
  console.log(`\nWatching ${folder} (Ctrl-C to stop)`);
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const trigger = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      do {
        again = false;
        await gradeAndReport(kata, manifest, implRoot);
      } while (again);
      running = false;
    }, SETTLE_MS);
  };
  watch(folder, { recursive: true }, trigger);
  return new Promise<number>(() => {});
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError) {
      console.error(`watch: ${error.message}`);
      process.exit(2);
    }
    throw error;
  },
);

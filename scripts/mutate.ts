// npm run mutate [-- N[,M]] [--concurrency C] [--incremental] [--bank-only]: mutation testing of the reference solutions.
//
// For each kata, StrykerJS mutates solutions/NN-name/*.ts (one small change at a time: a `<` that
// becomes `<=`, a condition forced to true, a string emptied...) and runs the kata's visible graded
// specs against every mutant. A mutant the specs notice is "killed"; one they do not is "survived".
// The mutation score (killed + timeout over all valid mutants) measures how much of the reference's
// behaviour the specs really pin down. Target: 90% per kata; docs/mutation-report.md lists the
// survivors and why each is equivalent (a change the README leaves open). `--bank-only` runs the
// interviewer's bank alone instead (target 85%): how much the held-out tests pin down by
// themselves, the measure of a bank that must catch what the visible specs were written around.
//
// Reports: reports/mutation/NN-name.html (open in a browser: every mutant, in the source) and
// NN-name.json (mutation-testing-elements schema), plus reports/mutation/summary.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MutantResult } from "@stryker-mutator/api/core";
import { integerFlag, parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { columns } from "./lib/table.ts";
import { listKatas, selectKatas } from "./lib/grader/katas.ts";

const FLAGS: Record<string, FlagSpec> = {
  concurrency: { value: true, valueName: "N", description: "Stryker workers (default 2, from stryker.config.mjs)" },
  incremental: { value: false, description: "reuse the previous run's results for unchanged mutants and specs (quick, see below)" },
  "bank-only": { value: false, description: "run the interviewer's bank alone against the mutants, not the visible specs (target 85%)" },
};

type Specs = "visible" | "bank";
const TARGETS: Record<Specs, number> = { visible: 90, bank: 85 };
/** Tests skipped in mutation runs: they time inputs of up to 1 MiB (see scripts/lib/mutation/skip-timing.setup.ts). */
// The tests that time growth: kata 1's "1 MiB of ... takes linear time", kata 4's "... in linear time".
const SKIPPED_TESTS = "linear time";
const REPORT_DIR = join(PROJECT_ROOT, "reports", "mutation");

interface KataScore {
  kata: string;
  /** Which specs ran against the mutants: the visible ones, or the bank alone. */
  specs: Specs;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** Compile or runtime errors and ignored mutants: not valid, not in the score. */
  invalid: number;
  /** (killed + timeout) / (killed + timeout + survived + noCoverage), in percent. */
  score: number;
  seconds: number;
}

function tally(kata: string, specs: Specs, results: MutantResult[], seconds: number): KataScore {
  const count = (status: MutantResult["status"]) => results.filter((r) => r.status === status).length;
  const killed = count("Killed");
  const timeout = count("Timeout");
  const survived = count("Survived");
  const noCoverage = count("NoCoverage");
  const valid = killed + timeout + survived + noCoverage;
  return {
    kata,
    specs,
    mutants: results.length,
    killed,
    timeout,
    survived,
    noCoverage,
    invalid: results.length - valid,
    score: valid === 0 ? 100 : Math.floor(((killed + timeout) / valid) * 10_000) / 100,
    seconds,
  };
}

function location(r: MutantResult): string {
  const file = r.fileName.replace(/^.*?solutions\//, "solutions/");
  return `${file}:${r.location.start.line}:${r.location.start.column}`;
}

async function mutateKata(kata: string, specs: Specs, concurrency: number | undefined, incremental: boolean): Promise<{ score: KataScore; survivors: MutantResult[] }> {
  const started = Date.now();
  // Read by scripts/lib/mutation/vitest.config.ts: only this kata's specs run (its bank alone with MUTATE_SPECS=bank).
  process.env.MUTATE_KATA = kata;
  process.env.MUTATE_SPECS = specs;
  const name = specs === "bank" ? `${kata}.bank` : kata;
  // Stryker is pinned to 9, the last major that runs on Node 20 (10 needs Node 22 and made npm ci
  // warn on every install). Loaded here, not at the top: `--help` should not pay for its start-up.
  const { Stryker } = await import("@stryker-mutator/core");
  const results = await new Stryker({
    configFile: join(PROJECT_ROOT, "stryker.config.mjs"),
    mutate: [`solutions/${kata}/*.ts`, `!solutions/${kata}/index.ts`],
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    reporters: ["clear-text", process.stdout.isTTY ? "progress" : "progress-append-only", "json", "html"],
    // --incremental: a mutant whose code and covering specs did not change since the last run
    // keeps its result, so a re-run after adding a spec mostly tests what that spec could change.
    // A quick check while writing specs, not the measure: Stryker 10.1 also keeps the result of a
    // *static* mutant (module-level code) whose specs changed, so new kills of those are missed.
    // The figures in docs/mutation-report.md come from full runs (the default).
    incremental,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    ...(concurrency === undefined ? {} : { concurrency }),
  }).runMutationTest();
  const score = tally(kata, specs, results, Math.round((Date.now() - started) / 1000));
  const survivors = results.filter((r) => r.status === "Survived" || r.status === "NoCoverage");
  return { score, survivors };
}

/**
 * reports/mutation/summary.json keeps one entry per kata and specs (visible, bank), each with the
 * date of its own run: a run of some katas (`npm run mutate -- 1`) replaces theirs and keeps the others'.
 */
function writeSummary(fresh: Array<KataScore & { date: string }>): void {
  const path = join(REPORT_DIR, "summary.json");
  let kept: Array<KataScore & { date: string }> = [];
  try {
    const old = JSON.parse(readFileSync(path, "utf8")) as { date?: string; katas?: Array<KataScore & { date?: string }> };
    kept = (old.katas ?? []).map((k) => ({ ...k, specs: k.specs ?? "visible", date: k.date ?? old.date ?? "unknown" }));
  } catch {
    // No summary yet, or an unreadable one: start over.
  }
  const byKata = new Map([...kept, ...fresh].map((k) => [`${k.kata} ${k.specs}`, k]));
  const katas = [...byKata.values()].sort((a, b) => a.kata.localeCompare(b.kata) || a.specs.localeCompare(b.specs));
  writeFileSync(path, JSON.stringify({ targets: TARGETS, katas }, null, 2) + "\n");
}

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("mutate", () => run(argv));

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run mutate [-- N[,M]] [--concurrency C] [--incremental] [--bank-only]", "Mutation-tests the reference solutions against the visible specs (or the bank alone); prints the score per kata.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 1) throw new UsageError(`unexpected argument "${args.positionals[1]}"`);
  const katas = selectKatas(listKatas(), args.positionals[0]);
  const concurrency = integerFlag(args, "concurrency", 1, 16);
  const specs: Specs = args.flags.has("bank-only") ? "bank" : "visible";
  const target = TARGETS[specs];

  // The specs import `@impl/NN-name`; this makes that the sandbox's mutated solutions/ (see
  // stryker.config.mjs). Which specs run is the vitest config's (MUTATE_SPECS), not GRADE_BANK's.
  process.env.KATA_IMPL = "solutions";
  process.env.MUTATE_SKIP_TESTS = SKIPPED_TESTS;
  delete process.env.GRADE_BANK;
  process.chdir(PROJECT_ROOT);
  mkdirSync(REPORT_DIR, { recursive: true });

  const scores: KataScore[] = [];
  const survivorLines: string[] = [];
  for (const kata of katas) {
    console.log(`\n=== ${kata.id}: mutating solutions/${kata.id} against spec/${kata.id}/${specs === "bank" ? "bank/*.spec.ts (the bank alone)" : "*.spec.ts"} ===\n`);
    const { score, survivors } = await mutateKata(kata.id, specs, concurrency, args.flags.has("incremental"));
    scores.push(score);
    for (const r of survivors) {
      const replacement = (r.replacement ?? "").replace(/\s+/g, " ").slice(0, 80);
      survivorLines.push(`  ${r.status === "NoCoverage" ? "no coverage" : "survived   "} ${location(r)} ${r.mutatorName}: ${replacement}`);
    }
  }

  const date = new Date().toISOString().slice(0, 10);
  writeSummary(scores.map((s) => ({ ...s, date })));

  if (survivorLines.length > 0) {
    console.log(`\nSurviving mutants (${survivorLines.length}; why each is equivalent: docs/mutation-report.md):`);
    console.log(survivorLines.join("\n"));
  }
  console.log(`\nMutation score per kata, ${specs === "bank" ? "the bank alone" : "the visible specs"} (${date}; target >= ${target}%; killed + timeout over valid mutants):\n`);
  const header = ["kata", "score", "killed", "timeout", "survived", "no cov", "invalid", "time"];
  const rows = scores.map((s) => [s.kata, `${s.score.toFixed(2)}%`, String(s.killed), String(s.timeout), String(s.survived), String(s.noCoverage), String(s.invalid), `${s.seconds}s`]);
  const [head, ...lines] = columns([header, ...rows], { widths: [22, 7, 7, 8, 9, 7, 8, 7], alignRight: (c) => c > 0, gap: " ", indent: "  " });
  console.log(head);
  scores.forEach((s, i) => console.log(`${lines[i]}  ${s.score >= target ? "ok" : "BELOW TARGET"}`));
  console.log(`\nReports: reports/mutation/<kata>.html, reports/mutation/summary.json`);
  return scores.every((s) => s.score >= target) ? 0 : 1;
}

if (isEntry(import.meta.url)) process.exitCode = await main(process.argv.slice(2));

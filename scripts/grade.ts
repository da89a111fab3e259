// npm run grade: grades an implementation of the katas and reports per kata and per level.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { integerFlag, parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, runAsCommand, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT, resolveImplRoot } from "./lib/impl-root.ts";
import { listKatas, selectKatas, type Kata } from "./lib/grader/katas.ts";
import { hashFiles, loadManifest, type Manifest } from "./lib/grader/manifest.ts";
import { htmlReport } from "./lib/grader/report-html.ts";
import { jsonReport, type RunInfo } from "./lib/grader/report-json.ts";
import { junitReport } from "./lib/grader/report-junit.ts";
import { markdownReport } from "./lib/grader/report-markdown.ts";
import { failures, integritySection, nextSteps, styleFor, table } from "./lib/grader/report-terminal.ts";
import { sandboxLine, sandboxOf } from "./lib/grader/integrity-report.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { LEVEL_FLAG, levelsFlag, levelsNote, parseLevels } from "./lib/grader/levels.ts";
import { CORE_FLAG, CORE_NOTE } from "./lib/grader/core.ts";
import { FLAW_DIFF, fixtureImplRoot, standsOnReference } from "./lib/fixtures/known-bad.ts";
import { expectedTest, expectedTests } from "./lib/grader/expected.ts";
import { gradeKatas, type GradeOptions } from "./lib/grader/grade-katas.ts";
import type { KataResult } from "./lib/grader/kata-result.ts";
import { score } from "./lib/grader/score.ts";

const FLAGS: Record<string, FlagSpec> = {
  impl: { value: true, valueName: "DIR", description: "code to grade: katas (default), solutions, or another checkout" },
  kata: { value: true, valueName: "LIST", description: "grade only these katas: 1,3 or 01-regex-dispatch" },
  only: {
    value: true,
    repeatable: true,
    valueName: "TEXT",
    description: "grade only the tests whose name (\"NN-kata > task > test\") contains TEXT; repeatable; scores cover those tests alone",
  },
  level: LEVEL_FLAG,
  core: CORE_FLAG,
  json: { value: true, valueName: "FILE", description: "write Exercism results.json v3 (+ score fields)" },
  junit: { value: true, valueName: "FILE", description: "write JUnit XML for CI systems" },
  html: { value: true, valueName: "FILE", description: "write a self-contained HTML report with a chart per kata" },
  markdown: { value: true, valueName: "FILE", description: "write the summary table as GitHub-flavoured Markdown (for $GITHUB_STEP_SUMMARY)" },
  seed: { value: true, valueName: "N", description: "fast-check seed, to replay a run exactly" },
  "min-score": { value: true, valueName: "N", description: "exit 1 when the overall score is below N" },
  timeout: { value: true, valueName: "SECONDS", description: "wall-clock limit per kata (default 60)" },
  jobs: { value: true, valueName: "N", description: "test processes at the same time (default: one per core)" },
  all: { value: false, description: "list every failing test, not only the first ones" },
  bank: { value: false, description: "also run the interviewer's held-out bank (scored apart)" },
};

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("grade", () => withScratch((scratch) => run(argv, scratch)), "\nRun npm run grade -- --help for the options.");

/**
 * Folders a grade makes for itself are removed when its main returns, not when the process exits:
 * main may run many times in one process (grade:round, the tools' tests), and a test worker is
 * stopped without its exit handlers (a folder per run was left in the temp folder that way).
 */
async function withScratch<T>(body: (scratch: string[]) => Promise<T>): Promise<T> {
  const scratch: string[] = [];
  try {
    return await body(scratch);
  } finally {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }
}

async function run(argv: string[], scratch: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run grade -- [options]", "Grades an implementation of the katas, per kata and per level (L1/L2/L3).", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}" (did you mean --impl ${args.positionals[0]}?)`);
  const implSpec = (args.flags.get("impl") as string | undefined) ?? "katas";
  let implRoot: string;
  let implLabel: string | undefined;
  // One of the repository's fixtures that stand on the reference: made here, graded like any other.
  const fixture = resolve(process.cwd(), implSpec);
  const made = standsOnReference(fixture) && existsSync(fixture) ? mkdtempSync(join(tmpdir(), "tuk-fixture-")) : undefined;
  if (made) scratch.push(made);
  try {
    if (made) {
      implRoot = fixtureImplRoot(fixture, made);
      const diffKata = existsSync(join(fixture, FLAW_DIFF)) ? (JSON.parse(readFileSync(join(fixture, "expect.json"), "utf8")) as { kata: string }).kata : undefined;
      const base = diffKata ? `solutions/${diffKata} with its ${FLAW_DIFF}` : "standing on solutions/";
      implLabel = `${relative(PROJECT_ROOT, fixture).split("\\").join("/")} (${base})`;
    } else implRoot = resolveImplRoot(implSpec, process.cwd());
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const seed = integerFlag(args, "seed", -(2 ** 31), 2 ** 31 - 1) ?? Math.floor(Math.random() * 2 ** 31);
  const minScore = integerFlag(args, "min-score", 0, 100);
  const timeoutMs = (integerFlag(args, "timeout", 1, 3600) ?? 60) * 1000;
  const jobs = integerFlag(args, "jobs", 1, 8);
  const includeBank = args.flags.has("bank");
  let katas = selectKatas(listKatas(), args.flags.get("kata") as string | undefined);
  const manifest = loadManifest();
  if (!manifest) throw new UsageError("spec/manifest.json is missing: run `npm run manifest` (maintainers) or restore it from git");
  const patterns = args.lists.get("only");
  const levels = parseLevels(args.flags.get("level"));
  const core = args.flags.has("core");
  const only = patterns || levels || core ? chooseTests(manifest, katas, patterns, includeBank, levels, core) : undefined;
  if (only) katas = katas.filter((kata) => only.has(kata.id));

  const style = styleFor(process.stdout);
  implLabel ??= relative(PROJECT_ROOT, implRoot).split("\\").join("/") || ".";
  // The commands it suggests grade the same folder: copied, they must not grade the stubs instead.
  const implFlag = args.flags.has("impl") ? ` --impl ${shellWord(implSpec)}` : "";
  const replay = `npm run grade --${implFlag}${args.flags.has("kata") ? ` --kata ${shellWord(String(args.flags.get("kata")))}` : ""}${levels ? ` --level ${levelsFlag(levels)}` : ""}${core ? " --core" : ""}${includeBank ? " --bank" : ""} --seed ${seed}`;
  console.log(`Grading ${made ? implLabel : `${implLabel}/`} · seed ${seed} (replay: ${replay})`);
  for (const warning of specDrift(manifest, katas)) console.log(style.yellow(`! ${warning}`));
  if (levels) console.log(style.yellow(`! ${levelsNote(levels)}`));
  if (core) console.log(style.yellow(`! ${CORE_NOTE}`));
  const narrowed = patterns && only ? katas.filter((kata) => only.get(kata.id)) : [];
  if (narrowed.length > 0) {
    const chosen = narrowed.map((kata) => `${kata.id}: ${only!.get(kata.id)!.size} of its tests`).join(", ");
    console.log(style.yellow(`! --only: ${chosen}; ${narrowed.length === 1 ? "its score covers" : "their scores cover"} those tests alone, not the whole kata${narrowed.length === 1 ? "" : "s"}`));
  }

  const startedAt = new Date();
  const workDir = mkdtempSync(join(tmpdir(), "tuk-grade-"));
  let runs: KataResult[];
  try {
    runs = await gradeAll(katas, manifest, only, { implRoot, seed, timeoutMs, workDir, includeBank, ...(jobs ? { maxWorkers: jobs } : {}) });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const scores = score(runs);
  const durationMs = Date.now() - startedAt.getTime();

  console.log("");
  console.log(table(scores, style, runs));
  const sandbox = sandboxOf(runs);
  if (sandbox) console.log(style.dim(`\n${sandboxLine(sandbox)}`));
  // Right under the table: a 0 for a forgery must not be read as an unfinished kata.
  const integrity = integritySection(runs, style);
  if (integrity) console.log(integrity);
  const failing = failures(runs, style, args.flags.has("all"));
  if (failing) console.log(failing);
  console.log(nextSteps(runs, scores, implLabel, levels, implFlag, core));
  console.log(style.dim(`\nGraded in ${(durationMs / 1000).toFixed(1)} s.`));

  for (const run of runs) {
    const unlisted = run.collected?.unlisted ?? [];
    if (unlisted.length > 0) {
      console.log(style.yellow(`! ${run.kata.id}: ${unlisted.length} test(s) in the specs are not in spec/manifest.json and earn nothing: ${unlisted[0].name}`));
    }
  }
  const info: RunInfo = { impl: implLabel, seed, bank: includeBank, startedAt, durationMs, ...(patterns ? { only: patterns } : {}), ...(levels ? { levels } : {}), ...(core ? { core } : {}) };
  const writers: Array<[string, () => string]> = [
    ["json", () => JSON.stringify(jsonReport(runs, scores, info), null, 2) + "\n"],
    ["junit", () => junitReport(runs, scores)],
    ["html", () => htmlReport(runs, scores, info)],
    ["markdown", () => markdownReport(runs, scores, info)],
  ];
  for (const [flag, render] of writers) {
    const file = args.flags.get(flag) as string | undefined;
    if (!file) continue;
    writeFileSync(file, render());
    console.log(style.dim(`Wrote ${file}`));
  }
  if (minScore !== undefined && scores.overall < minScore) {
    console.log(style.red(`Overall score ${scores.overall} is below --min-score ${minScore}.`));
    return 1;
  }
  return 0;
}

/** Every kata in one run; a kata missing from the manifest, or the grader's own failure, still yields a complete report. */
async function gradeAll(katas: Kata[], manifest: Manifest, only: ReturnType<typeof chooseTests> | undefined, options: Omit<GradeOptions, "only">): Promise<KataResult[]> {
  const listed = katas.filter((kata) => manifest.katas[kata.id]);
  let graded: KataResult[];
  try {
    graded = await gradeKatas(listed.map((kata) => ({ kata, manifest: manifest.katas[kata.id], ...(only?.get(kata.id) ? { only: only.get(kata.id)! } : {}) })), options);
  } catch (error) {
    // Every test, as an error.
    const message = `the grader could not run this kata: ${(error as Error).message}`;
    graded = listed.map((kata) => {
      const tests = expectedTests(manifest.katas[kata.id], { includeBank: options.includeBank, ...(only?.get(kata.id) ? { only: only.get(kata.id)! } : {}) });
      return { kata, tests: tests.map((t) => ({ ...expectedTest(kata, t), status: "error" as const, summary: message, message })), problems: [message], hungTests: [], durationMs: 0 };
    });
  }
  return katas.map((kata) => graded.find((run) => run.kata === kata) ?? { kata, tests: [], problems: ["not in spec/manifest.json: run `npm run manifest`"], hungTests: [], durationMs: 0 });
}

/** Spec files that are not the ones the manifest was made from: the score may not mean what it says. */
function specDrift(manifest: Manifest, katas: Kata[]): string[] {
  const warnings: string[] = [];
  const compare = (label: string, expected: Record<string, string>, actual: Record<string, string>) => {
    const changed = Object.keys({ ...expected, ...actual }).filter((file) => expected[file] !== actual[file]);
    if (changed.length > 0) warnings.push(`${label} differ from the committed ones: ${changed.slice(0, 5).join(", ")}${changed.length > 5 ? ", ..." : ""}`);
  };
  compare("shared spec helpers", manifest.support, hashFiles(join(PROJECT_ROOT, "spec", "support")));
  for (const kata of katas) {
    const entry = manifest.katas[kata.id];
    if (entry) compare(`${kata.id} specs`, entry.files, hashFiles(join(PROJECT_ROOT, "spec", kata.id)));
  }
  return warnings;
}

if (isEntry(import.meta.url)) runAsCommand("grade", main);

/** A word as a POSIX shell reads it back: quoted when it holds anything but safe characters. */
function shellWord(word: string): string {
  return /^[\w./:@%+,=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

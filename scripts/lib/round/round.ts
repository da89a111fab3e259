// Grades a round of candidates: each in its own grade child (grade-child.ts), several at once,
// each result kept in the round's folder with the fingerprint of the code it graded, so that a
// re-run grades again only the candidates whose code changed (or every one, with `force`).
//
// The round's folder, one sub-folder per candidate:
//   <name>/results.json   grade's --json (Exercism results.json v3)
//   <name>/report.html    grade's --html
//   <name>/round.json     the fingerprint of the graded code, the folder, the wall-clock time
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import type { Candidate } from "./candidates.ts";
import { fingerprint } from "./fingerprint.ts";
import { gradeChild } from "./grade-child.ts";
import { mapPool } from "./pool.ts";
import { rowFromResults, rowWithoutResults, type Results, type RoundRow } from "./row.ts";

export interface RoundOptions {
  /** The round's folder (see above). */
  outDir: string;
  kataIds: string[];
  /** `--kata` as given, passed on to grade (absent: every kata). */
  kataFlag?: string;
  bank: boolean;
  seed: number;
  /** Candidates graded at the same time. */
  jobs: number;
  /** Katas graded at the same time within one candidate's grade. */
  kataJobs: number;
  timeoutSeconds?: number;
  budgetMs: number;
  force: boolean;
  /** Told when a candidate's grade starts and ends, for a progress line. */
  onEvent?: (event: { candidate: Candidate; row?: RoundRow }) => void;
}

interface Stored {
  fingerprint: string;
  dir: string;
  wallMs: number;
  gradedAt: string;
}

const sha256 = (file: string) => createHash("sha256").update(existsSync(file) ? readFileSync(file) : "").digest("hex");

/** What a stored grade depended on besides the code: the same code graded otherwise is graded again. */
function context(candidate: Candidate, options: RoundOptions) {
  return {
    implRoot: candidate.implRoot,
    katas: options.kataIds,
    bank: options.bank,
    timeout: options.timeoutSeconds ?? null,
    manifest: sha256(join(PROJECT_ROOT, "spec", "manifest.json")),
  };
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

async function gradeCandidate(candidate: Candidate, options: RoundOptions): Promise<RoundRow> {
  const dir = join(options.outDir, candidate.name);
  mkdirSync(dir, { recursive: true });
  const print = fingerprint(candidate.implRoot, options.kataIds, context(candidate, options));
  const storeFile = join(dir, "round.json");
  const stored = readJson<Stored>(storeFile);
  const storedResults = readJson<Results>(join(dir, "results.json"));
  if (!options.force && stored?.fingerprint === print && storedResults) {
    return rowFromResults({ candidate: candidate.name, dir: candidate.dir, state: "cached", wallMs: stored.wallMs, report: join(dir, "report.html") }, storedResults);
  }

  const gradeArgs = [
    "--seed", String(options.seed),
    "--jobs", String(options.kataJobs),
    ...(options.kataFlag ? ["--kata", options.kataFlag] : []),
    ...(options.bank ? ["--bank"] : []),
    ...(options.timeoutSeconds ? ["--timeout", String(options.timeoutSeconds)] : []),
  ];
  // Forget the last grade first: a grade that fails now must not leave the old one standing.
  writeFileSync(storeFile, "{}\n");
  const outcome = await gradeChild({ implRoot: candidate.implRoot, outDir: dir, gradeArgs, budgetMs: options.budgetMs });
  const base = { candidate: candidate.name, dir: candidate.dir, wallMs: outcome.wallMs };
  if (outcome.overBudget) {
    return rowWithoutResults({ ...base, state: "over-budget" }, `over the budget of ${Math.round(options.budgetMs / 1000)} s: stopped, not graded`);
  }
  const results = outcome.results ? readJson<Results>(outcome.results) : undefined;
  // grade exits 0 whenever grading ran (no --min-score here): anything else is the grader failing.
  if (outcome.exitCode !== 0 || !results) {
    const last = outcome.output.trim().split("\n").slice(-3).join(" ").slice(0, 300);
    return rowWithoutResults({ ...base, state: "failed" }, `the grade failed (exit code ${outcome.exitCode}): ${last}`);
  }
  const store: Stored = { fingerprint: print, dir: candidate.dir, wallMs: outcome.wallMs, gradedAt: new Date().toISOString() };
  writeFileSync(storeFile, JSON.stringify(store, null, 2) + "\n");
  return rowFromResults({ ...base, state: "graded", report: outcome.report || undefined }, results);
}

export async function gradeRound(candidates: readonly Candidate[], options: RoundOptions): Promise<RoundRow[]> {
  mkdirSync(options.outDir, { recursive: true });
  return mapPool(candidates, options.jobs, async (candidate) => {
    options.onEvent?.({ candidate });
    const row = await gradeCandidate(candidate, options);
    options.onEvent?.({ candidate, row });
    return row;
  });
}

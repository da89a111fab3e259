// npm run grade:round -- DIR...: grades a whole hiring round, every checkout the sealed way `npm
// run grade` does (it runs grade's own script per candidate), several at once, each under a
// wall-clock budget, and writes one leaderboard: the terminal table, --csv, --json, --html and
// --markdown. A re-run grades again only the candidates whose kata folders changed.
import { availableParallelism } from "node:os";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { integerFlag, parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, runAsCommand, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { listKatas, selectKatas } from "./lib/grader/katas.ts";
import { styleFor } from "./lib/grader/report-terminal.ts";
import { candidatesOf, type Candidate } from "./lib/round/candidates.ts";
import { leaderboardCsv } from "./lib/round/csv.ts";
import { killRunningGrades } from "./lib/round/grade-child.ts";
import { leaderboardHtml } from "./lib/round/html.ts";
import { leaderboardIndex } from "./lib/round/index-json.ts";
import { leaderboardMarkdown } from "./lib/round/markdown.ts";
import { gradeRound } from "./lib/round/round.ts";
import type { RoundRow } from "./lib/round/row.ts";
import { leaderboardTable, seconds } from "./lib/round/terminal.ts";

const FLAGS: Record<string, FlagSpec> = {
  jobs: { value: true, valueName: "N", description: "candidates graded at the same time (default: the number of cores)" },
  budget: { value: true, valueName: "SECONDS", description: "wall-clock budget per candidate; past it the candidate is stopped and scores 0 (default 900)" },
  bank: { value: false, description: "also run the interviewer's held-out bank (scored apart)" },
  kata: { value: true, valueName: "LIST", description: "grade only these katas: 1,3 or 01-regex-dispatch" },
  seed: { value: true, valueName: "N", description: "fast-check seed for every candidate (default: one random seed for the round)" },
  timeout: { value: true, valueName: "SECONDS", description: "wall-clock limit per kata run, as grade's --timeout (default 60)" },
  force: { value: false, description: "grade every candidate, even those whose kata folders have not changed since their last grade" },
  csv: { value: true, valueName: "FILE", description: "write the leaderboard as CSV" },
  json: { value: true, valueName: "DIR", description: "keep the round in DIR: one results.json per candidate (DIR/NAME/results.json) plus DIR/index.json (default folder: .grade/round)" },
  html: { value: true, valueName: "FILE", description: "write the leaderboard as one page (sortable table, chart), each candidate's report beside it in FILE-reports/" },
  markdown: { value: true, valueName: "FILE", description: "write the leaderboard as GitHub-flavoured Markdown" },
};

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("grade:round", () => run(argv), "\nRun npm run grade:round -- --help for the options.");

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run grade:round -- DIR... [options]", "Grades every checkout given (each a folder holding katas/ or NN-name folders, as grade's --impl takes it) the sealed way npm run grade does, several at once, and writes one leaderboard. Candidates whose kata folders have not changed since their last grade are not graded again (--force grades them).", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length === 0) throw new UsageError("which checkouts? for example: npm run grade:round -- ../round/*");
  let candidates: Candidate[];
  try {
    candidates = candidatesOf(args.positionals, process.cwd());
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const kataFlag = args.flags.get("kata") as string | undefined;
  const katas = selectKatas(listKatas(), kataFlag);
  const cores = availableParallelism();
  const jobs = integerFlag(args, "jobs", 1, 64) ?? cores;
  const budgetMs = (integerFlag(args, "budget", 1, 24 * 3600) ?? 900) * 1000;
  const seed = integerFlag(args, "seed", -(2 ** 31), 2 ** 31 - 1) ?? Math.floor(Math.random() * 2 ** 31);
  const timeoutSeconds = integerFlag(args, "timeout", 1, 3600);
  const bank = args.flags.has("bank");
  const jsonDir = args.flags.get("json") as string | undefined;
  const outDir = jsonDir ? resolve(process.cwd(), jsonDir) : join(PROJECT_ROOT, ".grade", "round");
  // The cores are shared out: candidates at once times katas at once stays near the core count.
  const kataJobs = Math.max(1, Math.floor(cores / Math.min(jobs, candidates.length)));

  const style = styleFor(process.stdout);
  console.log(`Grading ${candidates.length} candidate${candidates.length === 1 ? "" : "s"}, ${Math.min(jobs, candidates.length)} at a time · seed ${seed} · budget ${budgetMs / 1000} s each`);
  const startedAt = new Date();
  const stop = () => {
    killRunningGrades();
    process.exit(130);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const rows = await gradeRound(candidates, {
    outDir, kataIds: katas.map((k) => k.id), kataFlag, bank, seed, jobs, kataJobs, timeoutSeconds, budgetMs, force: args.flags.has("force"),
    onEvent: ({ candidate, row }) => {
      if (!row) return;
      const what = row.state === "cached" ? "unchanged since its last grade" : row.note ?? `${row.overall.toFixed(1)}${row.bankOverall === null ? "" : ` (bank ${row.bankOverall.toFixed(1)})`}, integrity ${row.integrity}`;
      console.log(style.dim(`  ${candidate.name}: ${what} · ${seconds(row.wallMs)}`));
    },
  });
  const durationMs = Date.now() - startedAt.getTime();

  console.log("");
  console.log(leaderboardTable(rows, style));
  const graded = rows.filter((r) => r.state === "graded").length;
  console.log(style.dim(`\n${graded} graded, ${rows.length - graded} not (unchanged or stopped), in ${seconds(durationMs)}. Results kept in ${shortPath(outDir)}/.`));

  const reportOf = (row: RoundRow) => (row.report && existsSync(row.report) ? row.report : undefined);
  const resultsOf = (row: RoundRow) => {
    const file = join(outDir, row.candidate, "results.json");
    return row.state === "graded" || row.state === "cached" ? file : undefined;
  };
  const write = (file: string, text: string) => {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, text);
    console.log(style.dim(`Wrote ${file}`));
  };
  if (jsonDir) write(join(outDir, "index.json"), JSON.stringify(leaderboardIndex(rows, { seed, bank, startedAt, durationMs, resultsOf, jsonDir: outDir }), null, 2) + "\n");
  const csv = args.flags.get("csv") as string | undefined;
  if (csv) write(csv, leaderboardCsv(rows));
  const markdown = args.flags.get("markdown") as string | undefined;
  if (markdown) write(markdown, leaderboardMarkdown(rows, seed));
  const html = args.flags.get("html") as string | undefined;
  if (html) {
    // Each candidate's own report, copied beside the page: the page and its folder travel together.
    const reportsName = `${basename(html, extname(html))}-reports`;
    const reportsDir = join(dirname(resolve(html)), reportsName);
    const hrefs = new Map<string, string>();
    for (const row of rows) {
      const report = reportOf(row);
      if (!report) continue;
      mkdirSync(reportsDir, { recursive: true });
      copyFileSync(report, join(reportsDir, `${row.candidate}.html`));
      hrefs.set(row.candidate, `${encodeURIComponent(reportsName)}/${encodeURIComponent(row.candidate)}.html`);
    }
    write(html, leaderboardHtml(rows, { seed, startedAt, reportHref: (row) => hrefs.get(row.candidate), reportsFolder: reportsName }));
  }
  return 0;
}

/** Relative to where the command ran, when that is shorter to read. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

if (isEntry(import.meta.url)) runAsCommand("grade:round", main);

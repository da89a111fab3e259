// npm run interview -- --kata N [--minutes 45] [--level LIST]: a mock interview against the clock.
//
// Prints the kata's stage plan (scripts/lib/stages.ts) with the minute each stage should be done
// by, starts a countdown, and runs `npm run watch` underneath: the candidate reads watch's answers
// as usual, and every full answer is recorded (time, score per level, passing/total, hints shown
// so far) in a session log under .grade/interview/. When time is up, or on Ctrl-C, the kata is
// graded once more the grader's way (sealed, in a fresh process) and a session report is written:
// in the terminal, and as a self-contained HTML page with the score per level over the session,
// when each stage was reached, the hints used, what still fails and the questions an interviewer
// would ask next.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import type { Level } from "../spec/support/test-tag.ts";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, runAsCommand, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { readHintState } from "./lib/hints.ts";
import { PROJECT_ROOT, resolveImplRoot } from "./lib/impl-root.ts";
import { listKatas, selectKatas } from "./lib/grader/katas.ts";
import { LEVEL_FLAG, levelsFlag, parseLevels } from "./lib/grader/levels.ts";
import { loadManifest } from "./lib/grader/manifest.ts";
import { inTeachingOrder } from "./lib/grader/next-test.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { gradeKata } from "./lib/grader/run-kata.ts";
import { LEVELS, percent, score } from "./lib/grader/score.ts";
import { followUpQuestions, type Lang } from "./lib/interview/questions.ts";
import { deadlines, planLines } from "./lib/interview/plan.ts";
import { htmlSummary, terminalSummary } from "./lib/interview/session-report.ts";
import { INTERVIEW_ROOT, openSession, type SessionPoint } from "./lib/interview/session.ts";
import { parseEvent } from "./lib/watch/answer-event.ts";

const FLAGS: Record<string, FlagSpec> = {
  kata: { value: true, valueName: "N", description: "the kata to rehearse: 1, 2 or 3" },
  minutes: { value: true, valueName: "M", description: "length of the session (default 45; decimals allowed)" },
  level: LEVEL_FLAG,
  impl: { value: true, valueName: "DIR", description: "code to grade: katas (default) or another checkout" },
  lang: { value: true, valueName: "en|zh-CN", description: "language of the plan and the report (default en)" },
  out: { value: true, valueName: "DIR", description: "where session folders go (default .grade/interview)" },
};

const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("interview", () => run(argv), "\nRun npm run interview -- --help for the options.");

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run interview -- --kata N [--minutes 45] [--level LIST] [--lang zh-CN]", "A timed mock interview: the stage plan, a countdown, watch underneath, and a session report at the end.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const kataArg = args.flags.get("kata") as string | undefined;
  if (kataArg === undefined) throw new UsageError("which kata? for example: npm run interview -- --kata 1");
  const [kata] = selectKatas(listKatas(), kataArg);
  const minutesText = (args.flags.get("minutes") as string | undefined) ?? "45";
  const minutes = Number(minutesText);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 600) throw new UsageError(`--minutes must be a number of minutes above 0 and at most 600, not "${minutesText}"`);
  const lang = ((args.flags.get("lang") as string | undefined) ?? "en") as Lang;
  if (lang !== "en" && lang !== "zh-CN") throw new UsageError(`--lang must be en or zh-CN, not "${lang}"`);
  const implSpec = (args.flags.get("impl") as string | undefined) ?? "katas";
  let implRoot: string;
  try {
    implRoot = resolveImplRoot(implSpec, process.cwd());
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const manifest = loadManifest();
  const entry = manifest?.katas[kata.id];
  if (!manifest || !entry) throw new UsageError(`spec/manifest.json has no ${kata.id}`);
  const chosen = parseLevels(args.flags.get("level"));
  const levels = chosen ?? [...LEVELS];
  const only = chosen ? chooseTests(manifest, [kata], undefined, false, chosen).get(kata.id) : undefined;

  const started = Date.now();
  const session = openSession({ kata: kata.id, kataNumber: kata.number, startedAt: new Date(started).toISOString(), minutes, levels, lang }, (args.flags.get("out") as string | undefined) ?? INTERVIEW_ROOT);
  for (const line of planLines(kata.id, levels, minutes, lang)) console.log(line);
  // Hints read before the session are not this session's.
  const hintsBefore = readHintState()[kata.id] ?? 0;
  const hintsSeen = () => Math.max(0, (readHintState()[kata.id] ?? 0) - hintsBefore);
  const record = (point: Omit<SessionPoint, "atMs" | "hints">) => session.record({ atMs: Date.now() - started, hints: hintsSeen(), ...point });

  // watch underneath, in a process group of its own so that the whole of it stops with the session.
  const watchArgs = ["--import", "tsx", join(PROJECT_ROOT, "scripts", "watch.ts"), String(kata.number), "--impl", implRoot, "--events", ...(chosen ? ["--level", levelsFlag(chosen)] : [])];
  const watcher: ChildProcess = spawn(process.execPath, watchArgs, { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"], detached: true, env: process.env });
  const left = () => started + minutes * 60_000 - Date.now();
  createInterface({ input: watcher.stdout! }).on("line", (line) => {
    const event = parseEvent(line);
    if (!event) return void console.log(line);
    // A quick answer leaves slow tests out: only a full answer is a point of the session.
    if (event.pending > 0) return;
    record({ levels: event.levels, passing: event.passing, total: event.total });
    const shown = levels.map((l) => `${l} ${event.levels[l] ?? "-"}`).join(" · ");
    console.log(lang === "zh-CN" ? `  ⏱ 剩余 ${clock(left())} · ${shown}` : `  ⏱ ${clock(left())} left · ${shown}`);
  });

  // SIGTERM, not SIGKILL: watch's exit handler then stops its warm runner, which has a process
  // group of its own (a SIGKILL left it running, watching a folder nobody saves any more).
  const stopWatcher = () => {
    try {
      if (watcher.pid) process.kill(-watcher.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", stopWatcher);

  let interruptedAt: number | undefined;
  const reason = await new Promise<"time" | "interrupt">((resolve) => {
    const minute = setInterval(() => console.log(lang === "zh-CN" ? `  ⏱ 剩余 ${clock(left())}` : `  ⏱ ${clock(left())} left`), 60_000);
    const end = setTimeout(() => {
      clearInterval(minute);
      resolve("time");
    }, Math.max(0, left()));
    // Ctrl-C under npm comes more than once (the terminal signals the whole group, npm and tsx
    // pass it on), and a closed terminal or a multiplexer sends SIGHUP or SIGTERM: each ends the
    // session, and none that follows may kill the final grade and the report.
    const interrupt = () => {
      clearInterval(minute);
      clearTimeout(end);
      interruptedAt ??= Date.now() - started;
      resolve("interrupt");
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, interrupt);
  });
  stopWatcher();
  console.log(reason === "time" ? (lang === "zh-CN" ? "\n时间到。最终评分中……" : "\nTime is up. Final grade...") : lang === "zh-CN" ? "\n已中断。最终评分中……" : "\nInterrupted. Final grade...");

  // The closing grade: the grader's own way, sealed, whatever watch last said.
  const workDir = mkdtempSync(join(tmpdir(), "tuk-interview-"));
  let run;
  try {
    run = await gradeKata(kata, entry, { implRoot, seed: Math.floor(Math.random() * 2 ** 31), timeoutMs: 60_000, workDir, includeBank: false, ...(only ? { only } : {}) });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const [figures] = score([run]).katas;
  const percentOf = (level: Level) => (Number.isNaN(percent(figures.levels[level])) ? null : percent(figures.levels[level]));
  record({ levels: Object.fromEntries(levels.map((l) => [l, percentOf(l)])), passing: figures.tally.passed, total: figures.tally.total, final: true });

  const failing = inTeachingOrder(run.tests.filter((t) => t.status !== "pass")).map((t) => t.name);
  const summary = { meta: session.meta, points: session.points(), plan: deadlines(kata.id, levels), failing, questions: followUpQuestions(kata.number, lang), problems: run.problems, ended: reason === "interrupt" ? { by: "interrupt" as const, atMs: interruptedAt ?? Date.now() - started } : { by: "time" as const } };
  console.log(`\n${terminalSummary(summary)}`);
  const html = join(session.dir, "report.html");
  writeFileSync(html, htmlSummary(summary));
  console.log(`\n${lang === "zh-CN" ? "报告" : "Report"}: ${relative(process.cwd(), html) || html}`);
  return 0;
}

if (isEntry(import.meta.url)) runAsCommand("interview", main);

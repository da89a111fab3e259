// npm run interview -- --kata N [--minutes 45] [--level LIST]: a mock interview against the clock.
// npm run interview -- --sprint [--minutes 20]: the 20-minute round itself, katas 1-3 on their core tests.
//
// Prints the plan (a kata's stages, scripts/lib/stages.ts, or the sprint's schemes,
// scripts/lib/sprint.ts) with the minute each should be done by, starts a countdown, and runs
// `npm run watch` underneath, once per kata: the candidate reads watch's answers as usual, and every
// full answer is recorded (time, score per level or per kata, passing/total, hints shown so far) in
// a session log under .grade/interview/. When time is up, or on Ctrl-C, the katas are graded once
// more the grader's way (sealed, in fresh processes) and a session report is written: in the
// terminal, and as a self-contained HTML page with the score over the session, when each stage was
// reached, the hints used, what still fails and the questions an interviewer would ask next.
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
import { listKatas, selectKatas, type Kata } from "./lib/grader/katas.ts";
import { LEVEL_FLAG, levelsFlag, parseLevels } from "./lib/grader/levels.ts";
import { loadManifest, type KataManifest, type Manifest } from "./lib/grader/manifest.ts";
import { inTeachingOrder } from "./lib/grader/next-test.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { gradeKatas } from "./lib/grader/grade-katas.ts";
import { LEVELS, percent, score } from "./lib/grader/score.ts";
import { followUpQuestions, type Lang } from "./lib/interview/questions.ts";
import { deadlines, planLines, sprintPlan, sprintPlanLines } from "./lib/interview/plan.ts";
import { htmlSummary, terminalSummary, type StageDeadline } from "./lib/interview/session-report.ts";
import { INTERVIEW_ROOT, openSession, type SessionPoint } from "./lib/interview/session.ts";
import { SPRINT, SPRINT_MINUTES } from "./lib/sprint.ts";
import { parseEvent, type AnswerEvent } from "./lib/watch/answer-event.ts";

const FLAGS: Record<string, FlagSpec> = {
  kata: { value: true, valueName: "N", description: "the kata to rehearse: 1, 2, 3 or 4" },
  sprint: { value: false, description: "the 20-minute sprint: katas 1-3 on their core tests, a few minutes per scheme (instead of --kata)" },
  minutes: { value: true, valueName: "M", description: `length of the session (default 45, or ${SPRINT_MINUTES} for --sprint; decimals allowed)` },
  level: LEVEL_FLAG,
  impl: { value: true, valueName: "DIR", description: "code to grade: katas (default) or another checkout" },
  lang: { value: true, valueName: "en|zh-CN", description: "language of the plan and the report (default en)" },
  out: { value: true, valueName: "DIR", description: "where session folders go (default .grade/interview)" },
};

const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** One kata the session watches and grades at the end, with the only tests it runs (undefined: all). */
interface Track {
  kata: Kata;
  entry: KataManifest;
  only?: ReadonlySet<string>;
  watchFlags: string[];
}

/** What a session is: a kata on some levels, or the sprint's katas on their core tests. */
interface Shape {
  title: string;
  kataNumber?: number;
  sprint: boolean;
  minutes: number;
  series: string[];
  tracks: Track[];
  plan: StageDeadline[];
  planLines: string[];
  /** A point's scores from the latest full answer of each track (undefined: none yet). */
  scores(latest: ReadonlyMap<string, AnswerEvent>): Record<string, number | null>;
}

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("interview", () => run(argv), "\nRun npm run interview -- --help for the options.");

function minutesOf(text: string | undefined, fallback: number): number {
  const minutes = Number(text ?? fallback);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 600) throw new UsageError(`--minutes must be a number of minutes above 0 and at most 600, not "${text}"`);
  return minutes;
}

function kataShape(manifest: Manifest, kataArg: string, levelArg: string | true | undefined, minutesText: string | undefined, lang: Lang): Shape {
  const [kata] = selectKatas(listKatas(), kataArg);
  const entry = manifest.katas[kata.id];
  if (!entry) throw new UsageError(`spec/manifest.json has no ${kata.id}`);
  const minutes = minutesOf(minutesText, 45);
  const chosen = parseLevels(levelArg);
  const levels = chosen ?? [...LEVELS];
  const only = chosen ? chooseTests(manifest, [kata], undefined, false, chosen).get(kata.id) : undefined;
  return {
    title: kata.id,
    kataNumber: kata.number,
    sprint: false,
    minutes,
    series: levels,
    tracks: [{ kata, entry, ...(only ? { only } : {}), watchFlags: chosen ? ["--level", levelsFlag(chosen)] : [] }],
    plan: deadlines(kata.id, levels),
    planLines: planLines(kata.id, levels, minutes, lang),
    scores: (latest) => {
      const event = latest.get(kata.id);
      return Object.fromEntries(levels.map((l) => [l, event?.levels[l] ?? null]));
    },
  };
}

function sprintShape(manifest: Manifest, minutesText: string | undefined, lang: Lang): Shape {
  const minutes = minutesOf(minutesText, SPRINT_MINUTES);
  const katas = SPRINT.map(({ kata }) => {
    const found = listKatas().find((k) => k.id === kata);
    if (!found || !manifest.katas[kata]) throw new UsageError(`the sprint needs ${kata}, which this checkout does not have`);
    return found;
  });
  const core = chooseTests(manifest, katas, undefined, false, undefined, true);
  const tracks = katas.map((kata): Track => ({ kata, entry: manifest.katas[kata.id], ...(core.get(kata.id) ? { only: core.get(kata.id)! } : {}), watchFlags: ["--core"] }));
  return {
    title: `sprint: ${katas.map((k) => k.id).join(", ")}`,
    sprint: true,
    minutes,
    series: katas.map((k) => k.id),
    tracks,
    plan: sprintPlan(),
    planLines: sprintPlanLines(minutes, lang),
    scores: (latest) => Object.fromEntries(katas.map((k) => [k.id, latest.get(k.id)?.score ?? null])),
  };
}

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run interview -- --kata N [--minutes 45] [--level LIST] [--lang zh-CN]\n       npm run interview -- --sprint [--minutes 20] [--lang zh-CN]", "A timed mock interview: the plan, a countdown, watch underneath, and a session report at the end.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const kataArg = args.flags.get("kata") as string | undefined;
  const sprint = args.flags.has("sprint");
  if (sprint && (kataArg !== undefined || args.flags.has("level"))) throw new UsageError("--sprint takes katas 1-3 on their core tests: --kata and --level do not go with it");
  if (!sprint && kataArg === undefined) throw new UsageError("which kata? for example: npm run interview -- --kata 1 (or the 20-minute round: --sprint)");
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
  if (!manifest) throw new UsageError("spec/manifest.json is missing");
  const minutesText = args.flags.get("minutes") as string | undefined;
  const shape = sprint ? sprintShape(manifest, minutesText, lang) : kataShape(manifest, kataArg!, args.flags.get("level"), minutesText, lang);
  const { minutes, tracks } = shape;

  const started = Date.now();
  const session = openSession({ kata: shape.title, ...(shape.kataNumber ? { kataNumber: shape.kataNumber } : {}), ...(sprint ? { sprint } : {}), startedAt: new Date(started).toISOString(), minutes, series: shape.series, lang }, (args.flags.get("out") as string | undefined) ?? INTERVIEW_ROOT);
  for (const line of shape.planLines) console.log(line);
  // Hints read before the session are not this session's.
  const hintsOf = () => tracks.reduce((n, t) => n + (readHintState()[t.kata.id] ?? 0), 0);
  const hintsBefore = hintsOf();
  const hintsSeen = () => Math.max(0, hintsOf() - hintsBefore);
  const record = (point: Omit<SessionPoint, "atMs" | "hints">) => session.record({ atMs: Date.now() - started, hints: hintsSeen(), ...point });
  const left = () => started + minutes * 60_000 - Date.now();

  // watch underneath, once per kata, each in a process group of its own so that the whole of it stops with the session.
  const latest = new Map<string, AnswerEvent>();
  const watchers = tracks.map((track): ChildProcess => {
    const watchArgs = ["--import", "tsx", join(PROJECT_ROOT, "scripts", "watch.ts"), String(track.kata.number), "--impl", implRoot, "--events", ...track.watchFlags];
    const watcher = spawn(process.execPath, watchArgs, { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"], detached: true, env: process.env });
    createInterface({ input: watcher.stdout! }).on("line", (line) => {
      const event = parseEvent(line);
      if (!event) return void console.log(line);
      // A quick answer leaves slow tests out: only a full answer is a point of the session.
      if (event.pending > 0) return;
      latest.set(track.kata.id, event);
      const scores = shape.scores(latest);
      const answered = [...latest.values()];
      const passing = answered.reduce((n, e) => n + e.passing, 0);
      const total = tracks.reduce((n, t) => n + (latest.get(t.kata.id)?.total ?? t.only?.size ?? t.entry.tests.length), 0);
      record({ scores, passing, total });
      const shown = shape.series.map((key) => `${key} ${scores[key] ?? "-"}`).join(" · ");
      console.log(lang === "zh-CN" ? `  ⏱ 剩余 ${clock(left())} · ${shown}` : `  ⏱ ${clock(left())} left · ${shown}`);
    });
    return watcher;
  });

  // SIGTERM, not SIGKILL: watch's exit handler then stops its warm runner, which has a process
  // group of its own (a SIGKILL left it running, watching a folder nobody saves any more).
  const stopWatchers = () => {
    for (const watcher of watchers) {
      try {
        if (watcher.pid) process.kill(-watcher.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  process.on("exit", stopWatchers);

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
  stopWatchers();
  console.log(reason === "time" ? (lang === "zh-CN" ? "\n时间到。最终评分中……" : "\nTime is up. Final grade...") : lang === "zh-CN" ? "\n已中断。最终评分中……" : "\nInterrupted. Final grade...");

  // The closing grade: the grader's own way, sealed, whatever watch last said.
  const workDir = mkdtempSync(join(tmpdir(), "tuk-interview-"));
  let runs;
  try {
    runs = await gradeKatas(tracks.map((t) => ({ kata: t.kata, manifest: t.entry, ...(t.only ? { only: t.only } : {}) })), { implRoot, seed: Math.floor(Math.random() * 2 ** 31), timeoutMs: 60_000, workDir, includeBank: false });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const scores = score(runs);
  const value = (n: number) => (Number.isNaN(n) ? null : n);
  const finalScores = sprint
    ? Object.fromEntries(scores.katas.map((k) => [k.kata, value(k.score)]))
    : Object.fromEntries(shape.series.map((l) => [l, value(percent(scores.katas[0].levels[l as Level]))]));
  const passed = scores.katas.reduce((n, k) => n + k.tally.passed, 0);
  const total = scores.katas.reduce((n, k) => n + k.tally.total, 0);
  record({ scores: finalScores, passing: passed, total, final: true });

  const failing = runs.flatMap((run) => inTeachingOrder(run.tests.filter((t) => t.status !== "pass")).map((t) => (sprint ? `${run.kata.id} > ${t.name}` : t.name)));
  // The sprint's follow-ups: each scheme's first question, the one that asks what its minimal code leaves out.
  const questions = sprint ? tracks.flatMap((t) => followUpQuestions(t.kata.number, lang).slice(0, 1)) : followUpQuestions(tracks[0].kata.number, lang);
  const problems = runs.flatMap((run) => run.problems.map((p) => (sprint ? `${run.kata.id}: ${p}` : p)));
  const summary = { meta: session.meta, points: session.points(), plan: shape.plan, failing, questions, problems, ended: reason === "interrupt" ? { by: "interrupt" as const, atMs: interruptedAt ?? Date.now() - started } : { by: "time" as const } };
  console.log(`\n${terminalSummary(summary)}`);
  const html = join(session.dir, "report.html");
  writeFileSync(html, htmlSummary(summary));
  console.log(`\n${lang === "zh-CN" ? "报告" : "Report"}: ${relative(process.cwd(), html) || html}`);
  return 0;
}

if (isEntry(import.meta.url)) runAsCommand("interview", main);

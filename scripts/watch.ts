// npm run watch -- N: re-grades kata N on every save and says what to fix next.
//
// A warm vitest (scripts/lib/watch/warm-child.ts) re-runs only the spec files a save affects: first
// without the tests that were slow last time (a quick answer), then all of them (the full one).
// It runs candidate code, so this process keeps a watchdog: when no test ends for a while (an
// endless loop), the warm runner is killed and the kata is graded the grader's way, which names
// the test that hangs; the next clean save goes warm again.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT, resolveImplRoot } from "./lib/impl-root.ts";
import { listKatas, selectKatas, type Kata } from "./lib/grader/katas.ts";
import { loadManifest, type KataManifest } from "./lib/grader/manifest.ts";
import { LEVEL_FLAG, levelsFlag, levelsNote, nextStage, parseLevels } from "./lib/grader/levels.ts";
import { CORE_FLAG, CORE_NOTE } from "./lib/grader/core.ts";
import { nextTest } from "./lib/grader/next-test.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { levelTag, styleFor } from "./lib/grader/report-terminal.ts";
import { expectedTest } from "./lib/grader/expected.ts";
import { gradeKata } from "./lib/grader/grade-katas.ts";
import type { Level } from "../spec/support/test-tag.ts";
import { optionalInput, parsePropertyFailure, splitTag, summaryLine, withoutStack, type TestResult } from "./lib/grader/test-result.ts";
import { answerEvent, formatEvent } from "./lib/watch/answer-event.ts";
import { kataRules, unreached, underVerdict, type KataVerdict } from "./lib/watch/kata-rules.ts";
import { narrowingEnv } from "./lib/watch/narrowing.ts";
import type { WarmMessage, WarmTest } from "./lib/watch/warm-child.ts";

const FLAGS: Record<string, FlagSpec> = {
  impl: { value: true, valueName: "DIR", description: "code to watch: katas (default) or another checkout" },
  once: { value: false, description: "grade once and exit (no watching)" },
  level: LEVEL_FLAG,
  core: CORE_FLAG,
  events: { value: false, description: "after each answer, one line \"@watch-answer {json}\" for tools (npm run interview)" },
};

/** Editors write a file in several steps; wait for the burst to end before grading. */
const SETTLE_MS = 120;
/**
 * No sign of life from the warm runner (a spec file loaded, a test started or ended) for this long
 * is taken for an endless loop. Watch runs the candidate's code in process, with no sandbox to
 * cross: its slowest test takes well under 2 s under load, so this is 10x that, and far below the
 * graded run's test timeout (spec/support/time-limits.ts), which allows for the sandbox's crossings.
 * TUK_WATCH_STALL_MS sets it for the tests of watch itself, which would otherwise wait 20 s a hang.
 */
const WARM_STALL_MS = Number(process.env.TUK_WATCH_STALL_MS) || 20_000;

const style = styleFor(process.stdout);

/** `--level`: the levels this watch grades alone, said on every answer; undefined for every level. */
let levels: Level[] | undefined;
/** `--core`: only the core tests, said on every answer. */
let core = false;
/** `--events`: each answer also as a line a tool reads (answer-event.ts). */
let events = false;

/**
 * One result: "k of n passing", then the next failing test (in the README's order, next-test.ts)
 * and its message. `pending` are the slow tests a quick run left to the full run that follows:
 * neither passing nor the next to fix yet.
 */
function report(kata: Kata, tests: TestResult[], problems: string[], timing: string, pending: ReadonlySet<string> = new Set(), verdict?: KataVerdict): void {
  // What the grade would refuse or could not build is scored as the grade scores it, in its words;
  // the in-process run's own account of a file that did not load is then only noise.
  if (verdict) {
    tests = underVerdict(tests, verdict);
    problems = [verdict.problem, ...problems.filter((p) => !/ failed to load: /.test(p))];
    pending = new Set();
  }
  printAnswer(kata, tests, problems, timing, pending);
  if (events) console.log(formatEvent(answerEvent(tests, pending, problems, nextTest(tests, (t) => pending.has(t.name)))));
}

/** Each test's verdict in the last full answer: what the next answer's changes are counted from. */
let lastFull: Map<string, boolean> | undefined;

/** What changed since the last full answer, among the tests this answer ran; "" for the first answer. */
function changes(tests: TestResult[], pending: ReadonlySet<string>): string {
  if (!lastFull) return "";
  const ran = tests.filter((t) => !pending.has(t.name) && lastFull!.has(t.name));
  const fixed = ran.filter((t) => t.status === "pass" && !lastFull!.get(t.name));
  const broken = ran.filter((t) => t.status !== "pass" && lastFull!.get(t.name));
  if (fixed.length === 0 && broken.length === 0) return "  no test changed since the last full answer";
  const parts = [...(fixed.length > 0 ? [`${fixed.length} now pass${fixed.length === 1 ? "es" : ""}`] : []), ...(broken.length > 0 ? [`${broken.length} now fail${broken.length === 1 ? "s" : ""}: ${broken[0].name}${broken.length > 1 ? ", ..." : ""}`] : [])];
  return `  since the last full answer: ${parts.join("; ")}`;
}

function printAnswer(kata: Kata, tests: TestResult[], problems: string[], timing: string, pending: ReadonlySet<string>): void {
  // One write per answer, so that a reader never sees half of one, however busy the machine.
  const lines: string[] = [];
  const passing = tests.filter((t) => t.status === "pass").length;
  const colour = passing === tests.length ? style.green : passing === 0 ? style.red : style.yellow;
  // The slow tests left to the full run passed or failed before; counted apart, the quick answer
  // does not read as a regression.
  const waiting = pending.size === 0 ? "" : `, ${pending.size} slow test${pending.size === 1 ? "" : "s"} still running`;
  const stage = `${levels ? ` · ${levels.join(", ")} only` : ""}${core ? " · core only" : ""}`;
  lines.push(`\n${new Date().toLocaleTimeString()}  ${kata.id}: ${colour(`${passing} of ${tests.length} passing`)}${waiting}${stage} ${style.dim(`(${timing})`)}`);
  const changed = changes(tests, pending);
  if (changed) lines.push(style.dim(changed));
  if (pending.size === 0) lastFull = new Map(tests.map((t) => [t.name, t.status === "pass"]));
  for (const problem of problems) lines.push(`  ${style.red("!")} ${problem}`);
  const next = nextTest(tests, (t) => pending.has(t.name));
  if (!next) {
    const stageAfter = levels && nextStage(levels);
    const done = core
      ? `  All core tests passing. Next stage: npm run watch -- ${kata.number} --level ${levelsFlag(levels ?? ["L1"])}`
      : !levels
      ? "  All passing. Grade everything: npm run grade"
      : `  All ${levels.join(" and ")} tests passing. ${stageAfter ? `Next stage: npm run watch -- ${kata.number} --level ${levelsFlag(stageAfter)}` : "Grade everything: npm run grade"}`;
    lines.push(pending.size === 0 ? style.green(done) : style.dim("  No failure so far."));
    console.log(lines.join("\n"));
    return;
  }
  lines.push(`  next: ${next.name} ${style.dim(levelTag(next))}`);
  if (next.summary) lines.push(`        ${next.summary}`);
  // Whole: each argument is already described when long (spec/support/last-call.ts).
  if (next.input) lines.push(style.dim(`        input: ${next.input}`));
  if (next.property?.counterexample) lines.push(style.dim(`        counterexample: ${next.property.counterexample.slice(0, 300)}`));
  lines.push(style.dim(`  stuck? npm run hint -- ${kata.number}`));
  console.log(lines.join("\n"));
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The grader's way: a fresh child process per run, a watchdog, hung tests named and skipped. */
async function gradeCold(kata: Kata, manifest: KataManifest, implRoot: string, seed: number, only: ReadonlySet<string> | undefined): Promise<boolean> {
  const workDir = mkdtempSync(join(tmpdir(), "tuk-watch-"));
  try {
    const run = await gradeKata(kata, manifest, { implRoot, seed, timeoutMs: 30_000, workDir, includeBank: false, only });
    report(kata, run.tests, run.problems, seconds(run.durationMs));
    return run.hungTests.length === 0;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function warmResults(kata: Kata, manifest: KataManifest, verdicts: Map<string, WarmTest>, only: ReadonlySet<string> | undefined): TestResult[] {
  return manifest.tests.filter((entry) => !only || only.has(entry.name)).map((entry) => {
    const base = expectedTest(kata, entry);
    const verdict = verdicts.get(entry.name);
    if (!verdict) return { ...base, status: "error", summary: "not run yet" };
    if (verdict.state === "skipped") return { ...base, status: "error", summary: "waiting for the full run" };
    if (verdict.state === "passed") return { ...base, status: "pass" };
    const message = withoutStack(verdict.message ?? verdict.state);
    return { ...base, status: "fail", message, summary: summaryLine(message), ...optionalInput(message), property: parsePropertyFailure(message) };
  });
}

/** The command; in watch mode its promise never settles (Ctrl-C ends the process). */
export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("watch", () => run(argv));

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run watch -- N [--impl DIR] [--once] [--level LIST] [--core] [--events]", "Re-grades kata N on every save: at once without the tests that were slow last time, then with all of them.", FLAGS));
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
  const seed = Math.floor(Math.random() * 2 ** 31);
  levels = parseLevels(args.flags.get("level"));
  events = args.flags.has("events");
  core = args.flags.has("core");
  // The tests of the chosen levels, core or not (undefined: every test), run and counted alone, warm or cold.
  const only = levels || core ? chooseTests({ support: {}, katas: { [kata.id]: manifest } }, [kata], undefined, false, levels, core).get(kata.id) : undefined;
  if (levels) console.log(style.yellow(`! ${levelsNote(levels)}`));
  if (core) console.log(style.yellow(`! ${CORE_NOTE}`));

  if (args.flags.has("once")) {
    await gradeCold(kata, manifest, implRoot, seed, only);
    return 0;
  }

  const folder = join(implRoot, kata.id);
  console.log(`Watching ${folder} (Ctrl-C to stop) · seed ${seed}`);
  const verdicts = new Map<string, WarmTest>();
  let warm: ChildProcess | undefined;
  let stall: NodeJS.Timeout | undefined;
  let runStarted = 0;
  /** When the save being answered happened; cleared once its last run has reported. */
  let savedAt: number | undefined;
  let coldRunning = false;
  /** A save came while a cold grade ran: that grade is of older code, so one more follows it. */
  let savedDuringCold = false;
  /** The grade's verdict on the folder as last saved (kata-rules.ts), and the answers waiting on it. */
  let rules = kataRules(kata.id, folder);
  let answers = Promise.resolve();

  const armWatchdog = () => {
    clearTimeout(stall);
    stall = setTimeout(() => void onStall(), WARM_STALL_MS);
  };
  const onMessage = (message: WarmMessage) => {
    if (message.type === "progress") return armWatchdog();
    if (message.type === "start") {
      runStarted = Date.now();
      // A spec file saved (not the kata's own folder, which this process watches): time it from here.
      if (message.phase === "quick") savedAt ??= runStarted;
      return armWatchdog();
    }
    clearTimeout(stall);
    for (const test of message.tests) verdicts.set(test.name, test);
    const problems = message.fileErrors.map((e) => `${e.file.replace(PROJECT_ROOT + "/", "")} failed to load: ${summaryLine(e.message)}`);
    const timing = savedAt === undefined ? seconds(Date.now() - runStarted) : `${seconds(Date.now() - savedAt)} after the save`;
    const pending = new Set(message.deferred.map((name) => splitTag(name).name));
    const tests = warmResults(kata, manifest, verdicts, only);
    // In order, each with the kata rule's verdict on the folder as last saved.
    answers = answers.then(async () => report(kata, tests, problems, timing, pending, (await rules).verdict));
    if (message.final) savedAt = undefined;
  };

  const startWarm = () => {
    verdicts.clear();
    const child = fork(join(PROJECT_ROOT, "scripts", "lib", "watch", "warm-child.ts"), [kata.id], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, KATA_IMPL: implRoot, FC_SEED: String(seed), FORCE_COLOR: "0", ...(only ? narrowingEnv(manifest, only) : {}) },
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      detached: true,
    });
    warm = child;
    child.on("message", onMessage);
    child.on("exit", () => {
      if (warm === child) warm = undefined;
    });
  };
  const stopWarm = () => {
    clearTimeout(stall);
    if (warm?.pid) {
      try {
        process.kill(-warm.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    warm = undefined;
  };
  const gradeColdThenMaybeWarm = async () => {
    if (coldRunning) {
      savedDuringCold = true;
      return;
    }
    coldRunning = true;
    let clean: boolean;
    do {
      savedDuringCold = false;
      clean = await gradeCold(kata, manifest, implRoot, seed, only);
      // Dropped, the save that fixed the hang went unanswered until the next one: watch seemed deaf.
      // A clean grade starts the warm runner, whose first run is of the code as it is now.
    } while (!clean && savedDuringCold);
    coldRunning = false;
    savedAt = undefined;
    if (clean) startWarm();
  };
  const onStall = async () => {
    stopWarm();
    console.log(style.yellow(`\n  No test has ended for ${WARM_STALL_MS / 1000} s: an endless loop? Finding the test that hangs...`));
    await gradeColdThenMaybeWarm();
  };

  // The warm runner has a process group of its own: it must not outlive this process, even when
  // a signal comes the moment it starts (npm run interview stops watch that way).
  process.on("exit", stopWarm);
  process.on("SIGINT", () => process.exit(130));
  process.on("SIGTERM", () => process.exit(143));
  startWarm();
  // The warm runner re-runs on its own saves; while it is down (after a hang), saves grade cold.
  let timer: NodeJS.Timeout | undefined;
  watch(folder, { recursive: true }, (_event, name) => {
    savedAt ??= Date.now();
    const saved = rules = kataRules(kata.id, folder);
    // A file index.ts does not import reaches no test: the warm runner runs nothing for it, so
    // say so, and do not time the next answer from this save.
    const file = typeof name === "string" ? name.split("\\").join("/") : undefined;
    if (file !== undefined) {
      void saved.then(({ sources }) => {
        if (saved !== rules || !unreached(file, sources)) return;
        savedAt = undefined;
        console.log(style.dim(`\n  saved ${file}: index.ts does not import it, so no test reaches it yet`));
      });
    }
    if (warm) return;
    clearTimeout(timer);
    timer = setTimeout(() => void gradeColdThenMaybeWarm(), SETTLE_MS);
  });
  return new Promise<number>(() => {});
}

if (isEntry(import.meta.url)) main(process.argv.slice(2)).then((code) => process.exit(code));

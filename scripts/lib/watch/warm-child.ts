// A long-lived vitest in watch mode for one kata: it keeps the transformed specs and the workers
// warm, re-runs the spec files a save affects, and sends each run's results to its parent
// (scripts/watch.ts) over IPC. The parent keeps the watchdog: this process runs candidate code.
//
// A save is answered in two runs. The quick run leaves out the tests that took QUICK_TEST_MS or
// more in the last full run (a kata's linear-time checks on 1 MiB inputs take most of its time),
// so the candidate sees where they stand in well under a second; the full run follows at once
// and settles every test. A save during the full run cancels it: the newer code matters more.
import { availableParallelism } from "node:os";
import type { TestModule, TestSpecification } from "vitest/node";
import { createVitest } from "vitest/node";
import "../../../spec/support/setup/provided-context.ts";
import { readNarrowing } from "./narrowing.ts";

/** A test slower than this in the last full run waits for the full run. */
export const QUICK_TEST_MS = 50;

export interface WarmTest {
  /** describe titles and test title joined with " > ", tag included (as in spec/manifest.json). */
  name: string;
  state: "passed" | "failed" | "skipped" | "pending";
  message?: string;
}

export type Phase = "quick" | "full";

export type WarmMessage =
  | { type: "start"; phase: Phase }
  /** A test ended: the parent's watchdog measures silence, not the length of a whole run. */
  | { type: "progress" }
  | {
    type: "end";
    phase: Phase;
    /** True when no full run follows: every test of the affected files has a fresh verdict. */
    final: boolean;
    tests: WarmTest[];
    /** Tests left to the full run that follows (their state here is "skipped"). */
    deferred: string[];
    fileErrors: Array<{ file: string; message: string }>;
  };

const [kataId] = process.argv.slice(2);
const narrowing = readNarrowing(process.env);
/** Left out of every run, quick or full: the tests of levels not chosen. */
const leftOut = narrowing?.leaveOut ?? [];
const send = (message: WarmMessage): void => {
  process.send?.(message);
};

/** How long each test took in the last full run that ended: the quick run's choice is made from it. */
const lastDurations = new Map<string, number>();
let phase: Phase = "full";
let deferred: string[] = [];
let specsOfThisSave: TestSpecification[] = [];
let running = false;

function collect(modules: ReadonlyArray<TestModule>): Omit<Extract<WarmMessage, { type: "end" }>, "final"> {
  const tests: WarmTest[] = [];
  const fileErrors: Array<{ file: string; message: string }> = [];
  for (const module of modules) {
    for (const error of module.errors()) fileErrors.push({ file: module.moduleId, message: error.message ?? String(error) });
    for (const test of module.children.allTests()) {
      const result = test.result();
      const message = result.state === "failed" ? result.errors?.[0]?.message : undefined;
      tests.push({ name: test.fullName, state: result.state, ...(message === undefined ? {} : { message }) });
      if (phase === "full" && result.state !== "skipped" && result.state !== "pending") {
        lastDurations.set(test.fullName, test.diagnostic()?.duration ?? 0);
      }
    }
  }
  const waiting = new Set(deferred);
  const left = tests.filter((t) => t.state === "skipped" && waiting.has(t.name)).map((t) => t.name);
  return { type: "end", phase, tests, deferred: left, fileErrors };
}

function slowTests(): string[] {
  return [...lastDurations].filter(([, ms]) => ms >= QUICK_TEST_MS).map(([name]) => name);
}

const vitest = await createVitest("test", {
  watch: true,
  // Worker threads kept from run to run, not a fresh process per spec file: a re-run then costs
  // the tests' own time and little else (measured under load: about 1 s against 2 to 3.5 s). The
  // price is that spec files share module state, which the grader (isolated) does not allow.
  pool: "threads",
  isolate: false,
  // vitest's watch mode uses half the cores by default: one worker on a 2-core machine, which runs
  // the spec files one after another. A save is answered sooner with every core on it.
  maxWorkers: availableParallelism(),
  reporters: [
    {
      onTestRunStart: () => {
        running = true;
        send({ type: "start", phase });
      },
      // Signs of life for watch's stall watchdog: a spec file loaded, a test started or ended. On a
      // busy machine loading the files alone can take many seconds; that is not a hang.
      onTestModuleCollected: () => send({ type: "progress" }),
      onTestCaseReady: () => send({ type: "progress" }),
      onTestCaseResult: () => send({ type: "progress" }),
      onTestRunEnd: (modules, _errors, reason) => {
        running = false;
        // A run cancelled by a newer save says nothing about the newer code: stay quiet.
        if (reason === "interrupted") return;
        const result = collect(modules);
        const fullFollows = phase === "quick" && result.deferred.length > 0;
        send({ ...result, final: !fullFollows });
        if (fullFollows) setImmediate(runFull);
      },
    },
  ],
}, {
  // The project's scratch folders are not the candidate's saves: every grade, beside this watch or
  // not (npm test runs dozens), creates and deletes a sealed workspace of spec copies in .grade/;
  // watched, that churn cancelled runs and starved the first one (called an endless loop at 20 s).
  server: { watch: { ignored: ["**/.grade/**", "**/.stryker-tmp/**", "**/reports/**"] } },
});

/** The run after a quick one: the same files, nothing left out. */
function runFull(): void {
  phase = "full";
  deferred = [];
  vitest.provide("skipTests", leftOut);
  void vitest.runTestSpecifications(specsOfThisSave, false);
}

// vitest calls this just before it re-runs what a save affects: that run is the quick one.
vitest.onTestsRerun((specifications) => {
  // A full run going on here belongs to an older save (this one came during its quick run): the
  // newer code wins, and the full run must not be taken for this save's quick one.
  if (running) void vitest.cancelCurrentRun("keyboard-input");
  specsOfThisSave = [...specifications];
  phase = "quick";
  deferred = slowTests();
  vitest.provide("skipTests", [...leftOut, ...deferred]);
});

// A save while the full run is going on: stop it, so that the newer code is run sooner.
vitest.vite.watcher.on("change", () => {
  if (phase === "full" && running) void vitest.cancelCurrentRun("keyboard-input");
});

// The first run is a full one: it leaves out only the tests of the levels not chosen.
vitest.provide("skipTests", leftOut);
await vitest.start(narrowing ? narrowing.files : [`spec/${kataId}/`]);

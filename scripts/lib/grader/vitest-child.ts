// Starts vitest in a child process of its own process group, so that the whole tree (vitest and
// its workers) can be killed at once when a candidate's code hangs, floods or exits.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

// The package's bin file; its "exports" map does not expose it to require.resolve.
const VITEST_BIN = join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");

/** What is kept of a child's stdout+stderr: enough to name a crash, never 50 MB. */
const OUTPUT_TAIL_BYTES = 64 * 1024;

export interface ChildOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Killed because one test ran longer than the stall limit (the run as a whole had time left). */
  stalled: boolean;
  /** The last OUTPUT_TAIL_BYTES of stdout and stderr, interleaved as they came. */
  outputTail: string;
  outputBytes: number;
  durationMs: number;
}

/**
 * A progress log (see spec/support/setup/progress-log.ts) to watch: when its last line is a test's
 * start and nothing has been written for `stallMs`, that test is stuck in a synchronous loop (an
 * async hang would have hit vitest's own test timeout), and waiting for the whole run's limit
 * would only waste the time the other tests need.
 */
export interface StallWatch {
  progressFile: string;
  stallMs: number;
}

export interface ChildOptions {
  /** The child's working folder (default: the project root). */
  cwd?: string;
  /** `env` is the child's whole environment, not additions to this process's. */
  replaceEnv?: boolean;
}

/** Test files may run in parallel: a test is open when its start has no end, wherever it is. */
function hasOpenTest(file: string): boolean {
  const open = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    try {
      const record = JSON.parse(line) as { event: string; file?: string; test: string };
      const key = `${record.file}\u0000${record.test}`;
      if (record.event === "start") open.add(key);
      else open.delete(key);
    } catch {
      // A line being written right now.
    }
  }
  return open.size > 0;
}

export function runVitest(args: string[], env: Record<string, string>, timeoutMs: number, stall?: StallWatch, options: ChildOptions = {}): Promise<ChildOutcome> {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [VITEST_BIN, ...args], {
      cwd: options.cwd ?? PROJECT_ROOT,
      env: { ...(options.replaceEnv ? {} : process.env), ...env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let tail = "";
    let outputBytes = 0;
    const keep = (chunk: Buffer) => {
      outputBytes += chunk.length;
      tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);

    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const watchdog = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    let stalled = false;
    let lastSize = -1;
    let lastChange = Date.now();
    const stallCheck = stall
      ? setInterval(() => {
          const size = existsSync(stall.progressFile) ? statSync(stall.progressFile).size : 0;
          if (size !== lastSize) {
            lastSize = size;
            lastChange = Date.now();
          } else if (size > 0 && Date.now() - lastChange > stall.stallMs && hasOpenTest(stall.progressFile)) {
            stalled = true;
            timedOut = true;
            killGroup();
          }
        }, 250)
      : undefined;

    child.on("close", (exitCode, signal) => {
      clearTimeout(watchdog);
      clearInterval(stallCheck);
      // A worker that outlived vitest's main process must not keep running candidate code.
      killGroup();
      resolvePromise({ exitCode, signal, timedOut, stalled, outputTail: tail, outputBytes, durationMs: Date.now() - started });
    });
    child.on("error", (error) => {
      clearTimeout(watchdog);
      clearInterval(stallCheck);
      resolvePromise({ exitCode: null, signal: null, timedOut, stalled, outputTail: String(error), outputBytes, durationMs: Date.now() - started });
    });
  });
}

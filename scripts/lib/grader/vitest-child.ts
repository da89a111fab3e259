// Starts vitest in a child process of its own process group, so that the whole tree (vitest, its
// workers and their sandboxes) can be killed at once when the run outlives its limit.
import { spawn } from "node:child_process";
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
  /** The last OUTPUT_TAIL_BYTES of stdout and stderr, interleaved as they came. */
  outputTail: string;
  outputBytes: number;
  durationMs: number;
}

export interface ChildOptions {
  /** The child's working folder (default: the project root). */
  cwd?: string;
  /** `env` is the child's whole environment, not additions to this process's. */
  replaceEnv?: boolean;
}

export function runVitest(args: string[], env: Record<string, string>, timeoutMs: number, options: ChildOptions = {}): Promise<ChildOutcome> {
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
    child.on("close", (exitCode, signal) => {
      clearTimeout(watchdog);
      // A worker that outlived vitest's main process goes with it (its sandboxes end when it does).
      killGroup();
      resolvePromise({ exitCode, signal, timedOut, outputTail: tail, outputBytes, durationMs: Date.now() - started });
    });
    child.on("error", (error) => {
      clearTimeout(watchdog);
      resolvePromise({ exitCode: null, signal: null, timedOut, outputTail: String(error), outputBytes, durationMs: Date.now() - started });
    });
  });
}

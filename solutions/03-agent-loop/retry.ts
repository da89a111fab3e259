// Running one tool: a timeout on every attempt, and retries with exponential backoff, but only for
// failures that another attempt could fix (a timeout, an error the tool marked `retryable`).
// Retrying a bad argument would only fail again, slower: those never reach this file.
import { onAbort } from "./abort.ts";
import { describeError } from "./redact.ts";
import type { Clock, ErrorCode, Tool } from "./types.ts";

/** The wait before retry number `retry` (1, 2, ...): base, 2 x base, 4 x base, ... */
export function backoffDelay(retry: number, baseMs: number): number {
  return baseMs * 2 ** (retry - 1);
}

/** The documented transient marker: an error object with `retryable: true`. */
export function isRetryable(thrown: unknown): boolean {
  return typeof thrown === "object" && thrown !== null && (thrown as { retryable?: unknown }).retryable === true;
}

export interface AttemptSettings {
  callId: string;
  runId: string;
  timeoutMs: number;
  retries: number;
  backoffBaseMs: number;
  clock: Clock;
  /** The run's signal: aborting it abandons the attempt and any backoff wait. */
  signal: AbortSignal;
}

export type ToolOutcome =
  | { ok: true; value: unknown; retries: number }
  | { ok: false; code: ErrorCode; message: string; retries: number };

type Attempt = { kind: "ok"; value: unknown } | { kind: "error"; thrown: unknown } | { kind: "timeout" } | { kind: "aborted" };

/** A promise that settles when `signal` aborts, and a way to stop listening. */
function whenAborted(signal: AbortSignal): { promise: Promise<Attempt>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<Attempt>((resolve) => {
    dispose = onAbort(signal, () => resolve({ kind: "aborted" }));
  });
  return { promise, dispose };
}

async function attemptOnce(tool: Tool, args: Record<string, unknown>, attempt: number, s: AttemptSettings): Promise<Attempt> {
  // The tool gets its own signal: aborted on timeout (so it can stop its work) or on run abort.
  const toolController = new AbortController();
  const stopTimer = new AbortController();
  const abort = whenAborted(s.signal);
  try {
    // `new Promise` turns a synchronous throw into a rejection: a tool may be sync or async.
    const execution = new Promise<unknown>((resolve) =>
      resolve(tool.execute(args, { signal: toolController.signal, callId: s.callId, runId: s.runId, attempt })),
    ).then(
      (value): Attempt => ({ kind: "ok", value }),
      (thrown): Attempt => ({ kind: "error", thrown }),
    );
    const timeout = s.clock.sleep(s.timeoutMs, stopTimer.signal).then(
      (): Attempt => ({ kind: "timeout" }),
      // The timer was cancelled because the attempt settled first: this branch must never win.
      () => new Promise<Attempt>(() => {}),
    );
    // A hanging tool is abandoned, not awaited: the race settles without it.
    const outcome = await Promise.race([execution, timeout, abort.promise]);
    if (outcome.kind === "timeout" || outcome.kind === "aborted") toolController.abort();
    return outcome;
  } finally {
    stopTimer.abort();
    abort.dispose();
  }
}

export async function runWithRetries(tool: Tool, args: Record<string, unknown>, s: AttemptSettings): Promise<ToolOutcome> {
  const aborted = (retries: number): ToolOutcome => ({ ok: false, code: "aborted", message: "the run was aborted", retries });
  for (let attempt = 1; ; attempt++) {
    const retries = attempt - 1;
    if (s.signal.aborted) return aborted(retries);
    const outcome = await attemptOnce(tool, args, attempt, s);
    if (outcome.kind === "ok") return { ok: true, value: outcome.value, retries };
    if (outcome.kind === "aborted") return aborted(retries);

    const code: ErrorCode = outcome.kind === "timeout" ? "timeout" : "tool_error";
    const message = outcome.kind === "timeout" ? `timed out after ${s.timeoutMs} ms` : describeError(outcome.thrown);
    const retryable = outcome.kind === "timeout" || isRetryable(outcome.thrown);
    if (!retryable) return { ok: false, code, message, retries };
    if (retries === s.retries) {
      // Out of retries: a degraded answer the model can work around, not a crash.
      if (s.retries === 0) return { ok: false, code, message, retries };
      return { ok: false, code: "unavailable", message: `tool unavailable after ${attempt} attempts (${message})`, retries };
    }
    // The wait gets a signal of its own, tied to the run's: the clock adds a listener to what it is
    // given, and many calls may be waiting at once.
    const wait = new AbortController();
    const stop = onAbort(s.signal, () => wait.abort(s.signal.reason));
    try {
      await s.clock.sleep(backoffDelay(attempt, s.backoffBaseMs), wait.signal);
    } catch {
      return aborted(retries);
    } finally {
      stop();
    }
  }
}

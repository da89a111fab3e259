// What a spec asks of the place where the graded code runs, rather than of its own process. In
// one process with the code (`npm run spec`, `npm run watch`) that place is this process; in a
// graded run it is the kata's sandbox process (spec/support/sandbox/client.ts puts its own answers
// here when it connects), and the answers must come from there:
// - `idle()`: "let the code run until it has nothing left to do but wait". One setImmediate in
//   one process; in a graded run, until both processes are idle and no message is on its way.
//   The fake clock of kata 3 advances only then, and a spec that lets a run get going waits on it.
// - `cpuTimeMs(run)`: the CPU time `run` costs where the code runs (the complexity checks).
// - `activeTimers()`: how many timers are pending where the code runs.
// - `helperCpuMs()`: CPU time spent so far by processes that work for this one (the sandbox):
//   a test waiting on a busy sandbox is not idle.
// - `callEach(fn, argsList)`: `argsList.map((args) => fn(...args))`, stopping at the first throw,
//   as a loop would; in a graded run, the kata's function called for each in its sandbox, in one
//   round trip rather than one per call. For the loops that call the kata hundreds of times.
//   `callEachSettled` goes on after a throw, as a loop that catches each call's error would.

import { forgetCall } from "./last-call.ts";

export interface Realm {
  afterIdle(callback: () => void): void;
  cpuTimeMs(run: () => unknown): number;
  activeTimers(): number;
  helperCpuMs(): number;
  callEach<A extends readonly unknown[], R>(fn: (...args: A) => R, argsList: readonly A[]): R[];
  callEachSettled<A extends readonly unknown[], R>(fn: (...args: A) => R, argsList: readonly A[]): Settled<R>[];
}

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

function settle<R>(run: () => R): Settled<R> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

const inProcess: Realm = {
  afterIdle: (callback) => {
    setImmediate(callback);
  },
  cpuTimeMs(run) {
    const before = process.cpuUsage();
    run();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  },
  activeTimers: () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length,
  helperCpuMs: () => 0,
  // A batch has no single input to show when a test fails after it: forgotten, as the sandbox's
  // client forgets it (last-call.ts).
  callEach: (fn, argsList) => afterForgetting(argsList.map((args) => fn(...args))),
  callEachSettled: (fn, argsList) => afterForgetting(argsList.map((args) => settle(() => fn(...args)))),
};

function afterForgetting<T>(value: T): T {
  forgetCall();
  return value;
}

let current: Realm = inProcess;

/** Called by the sandbox's client when the graded code runs elsewhere. */
export function useRealm(realm: Realm): void {
  current = realm;
}

export const afterIdle = (callback: () => void): void => current.afterIdle(callback);
export const idle = (): Promise<void> => new Promise((resolve) => current.afterIdle(resolve));
export const cpuTimeMs = (run: () => unknown): number => current.cpuTimeMs(run);
export const activeTimers = (): number => current.activeTimers();
export const helperCpuMs = (): number => current.helperCpuMs();
export const callEach = <A extends readonly unknown[], R>(fn: (...args: A) => R, argsList: readonly A[]): R[] => current.callEach(fn, argsList);
export const callEachSettled = <A extends readonly unknown[], R>(fn: (...args: A) => R, argsList: readonly A[]): Settled<R>[] => current.callEachSettled(fn, argsList);

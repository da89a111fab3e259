// The program of a sandbox process: the one place graded code runs in a graded run. The grader
// bundles this file to JavaScript and starts it confined (confinement.ts): it can read only its own
// folder (this program and the kata, bundled), write no file, start no process or thread, and, on
// Linux, sees no other process and has no network. It talks to the specs' process through three
// descriptors the supervisor hands it: 3 and 4 read the specs' pipe (the event loop's and a
// blocking one), 5 writes to it.
//
// Nothing here defends the grade: the graded code can rewrite any of it, and then only this
// process lies, which is no more than its functions returning wrong values. It is here so that
// honest code runs as it would in one process with the specs: `process.exit` throws as vitest
// makes it throw, an error nobody catches is not fatal, each spec file gets the kata afresh.
import { Peer } from "./peer.ts";

// What the specs may ask of this process itself (spec/support/realm.ts), taken before any graded
// code runs.
const activeResources = process.getActiveResourcesInfo.bind(process);
const cpuUsage = process.cpuUsage.bind(process);
const realm = {
  activeTimers: () => activeResources().filter((kind) => kind === "Timeout").length,
  // realm.ts's callEach and callEachSettled: the calls of a loop, made here, in order, stopping at
  // the first throw unless `settled`.
  each: (fn: (...args: unknown[]) => unknown, argsList: unknown[][], settled: boolean) => {
    const values: unknown[] = [];
    const errors: Array<[number, unknown]> = [];
    for (const [i, args] of argsList.entries()) {
      try {
        values.push(fn(...args));
      } catch (error) {
        if (!settled) return { values, threw: true, error };
        values.push(undefined);
        errors.push([i, error]);
      }
    }
    return { values, threw: false, errors };
  },
  cpuMicros: () => {
    const used = cpuUsage();
    return used.user + used.system;
  },
};

const exit = process.exit.bind(process);
process.exit = ((code: number | string | undefined = process.exitCode ?? 0) => {
  throw new Error(`process.exit unexpectedly called with "${code}"`);
}) as typeof process.exit;
// In one process with the specs, an error nobody catches is vitest's to report, and the tests go
// on; here it must not end the process either.
process.on("uncaughtException", () => {});
process.on("unhandledRejection", () => {});

let methods = new Set<string>();

const peer = new Peer({
  fds: { asyncRead: 3, syncRead: 4, write: 5 },
  callable: (method) => method !== undefined && methods.has(method),
  keepAlive: true,
  answersKeepIdentity: false,
  // Nothing pending but pipes (the channel, stdout): no timer, immediate or other I/O of the kata's.
  idle: () => activeResources().every((kind) => kind === "PipeWrap" || kind === "TTYWrap" || kind === "SignalWrap"),
  onClose: () => exit(0),
  async onLoad(request) {
    methods = new Set(request.methods);
    // A new URL is a new module: each spec file meets the kata freshly evaluated, as vitest's
    // resetModules gives it in one process.
    const kata = (await import(`${request.url}?g=${request.g}`)) as Record<string, unknown>;
    const exports: Record<string, unknown> = {};
    for (const name of Object.keys(kata)) exports[name] = kata[name];
    const classes: Record<string, Function> = {};
    for (const name of request.classes) if (typeof kata[name] === "function") classes[name] = kata[name] as Function;
    return { exports, classes, realm };
  },
});
void peer;

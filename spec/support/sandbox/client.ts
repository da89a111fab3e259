// The specs' side of a graded run: each kata's code runs in a sandbox process of its own, and
// `@impl/NN-name` is the kata's bridge (spec/NN-name/bridge.ts), which gets the kata's exports from
// here. One sandbox per kata per test process, started on first use and kept across spec files;
// each spec file loads the kata afresh in it (a new generation), as vitest's resetModules gives
// each file the code afresh in one process. A sandbox that dies (its supervisor stops it when one
// call runs too long, or it runs out of memory, or it ends itself) costs the call that was waiting
// on it; the next call starts a new one, at most MAX_STARTS times per spec file.
//
// Started only in a graded run: the grader sets GRADE_SANDBOX_ROOT (the folder holding each kata's
// bundle and the sandbox's program), GRADE_SANDBOX_CONFINEMENT and GRADE_SANDBOX_REPORT.
import { execFileSync } from "node:child_process";
import { appendFileSync, closeSync, constants, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { forgetCall, noteCall } from "../last-call.ts";
import type { Realm, Settled } from "../realm.ts";
import { confinementFromEnv, sandboxLaunch, type Confinement } from "./confinement.ts";
import { SANDBOX_REPORT_ENV, SANDBOX_ROOT_ENV, SANDBOX_SUPERVISOR_ENV } from "./env.ts";
import { Peer, PeerGone, type Generation } from "./peer.ts";
import type { Json } from "./wire.ts";

// Every limit counts what a busy machine cannot stretch: the sandbox's own CPU time (an endless
// loop), or the time it sat idle, neither running nor waiting for a CPU (a wait that never ends).
// A correct kata on a loaded machine runs or waits for a CPU all along, and is never stopped.
// Where the kernel's account cannot be read (no /proc), wall time stands in for both.
/** One call may keep the specs waiting this much of the sandbox's CPU time, or idle time, then it is stopped. */
export const CALL_CPU_LIMIT_MS = 5_000;
export const CALL_WALL_LIMIT_MS = 30_000;
/** Loading the kata (its top-level code) may take this much of its CPU time (a correct kata needs well under 1 s)... */
export const LOAD_CPU_LIMIT_MS = 5_000;
/** ... or sit idle this long. */
export const LOAD_LIMIT_MS = 10_000;
/**
 * A sandbox's process may take this long (wall time) to exist: until it does, no graded code has
 * run, and the time is the machine's (namespaces are made under a kernel lock, which many
 * sandboxes started at once, on a loaded machine, wait for in turn, neither running nor queued).
 */
export const START_LIMIT_MS = 60_000;
/** How a sandbox stopped for START_LIMIT_MS is described: the machine's failure, not the kata's. */
const NOT_STARTED = "the sandbox's process did not start";
/** Sandboxes started for one spec file, at most: a kata that keeps dying is not started forever. */
const MAX_STARTS = 4;


export interface KataSpec {
  /** The full name of the test running now, for the report of a sandbox that died under it. */
  currentTest?: () => string | undefined;
  /** The kata's error classes, as the specs know them (the bridge's own): rebuilt as these. */
  classes: Record<string, Function>;
  /** The methods of the kata's API (a registry's `lookup`, a clock's `now`): the only functions
   * of the graded code, besides its exports, that the specs may call. */
  methods: string[];
}

interface Exit {
  code: number | null;
  signal: string | null;
  outputBytes: number;
  tail: string;
  killedFor?: string;
}

interface SupervisorMessage {
  type: "spawned" | "exit" | "cpu";
  token: number;
  pid?: number;
  ms?: number;
  code?: number | null;
  signal?: string | null;
  outputBytes?: number;
  tail?: string;
  killedFor?: string;
}

/** What every sandbox of this test process shares: the supervisor thread. */
class Host {
  readonly worker: Worker;
  readonly port: MessagePort;
  /** [0] the token of the sandbox this thread waits on, [1] since when: read by the supervisor. */
  readonly state = new Float64Array(new SharedArrayBuffer(2 * 8));
  /** Bumped by the supervisor when it has news (a spawn, an exit). */
  readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextToken = 1;
  private readonly news = new Map<number, SupervisorMessage[]>();
  readonly sandboxes = new Map<string, Sandbox>();
  /** Per kata: why its load ended its process, when it did (see connect). */
  readonly loadFailures = new Map<string, string>();

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const supervisor = process.env[SANDBOX_SUPERVISOR_ENV];
    this.worker = new Worker(supervisor ? pathToFileURL(supervisor) : new URL("./supervisor.mjs", import.meta.url), {
      workerData: {
        state: this.state.buffer, signal: this.signal.buffer, cpuLimitMs: CALL_CPU_LIMIT_MS, wallLimitMs: CALL_WALL_LIMIT_MS, port: port2,
        reportFile: process.env[SANDBOX_REPORT_ENV] ? join(process.env[SANDBOX_REPORT_ENV]!, `${process.pid}-output.jsonl`) : undefined,
      },
      transferList: [port2],
    });
    this.worker.unref();
    port1.on("message", (message: SupervisorMessage) => this.take(message));
    port1.unref();
    // Node opens its inspector on SIGUSR1, for anyone who may signal this process. A sandbox
    // confined to its own PID namespace cannot name this process; where there is no such
    // namespace, this listener keeps the signal from doing anything.
    process.on("SIGUSR1", () => {});
    pinToCurrentCpu();
  }

  token(): number {
    return this.nextToken++;
  }

  private take(message: SupervisorMessage): void {
    const list = this.news.get(message.token) ?? [];
    list.push(message);
    this.news.set(message.token, list);
    if (message.type === "exit") this.sandboxFor(message.token)?.exited(message as unknown as Exit);
  }

  private sandboxFor(token: number): Sandbox | undefined {
    for (const sandbox of this.sandboxes.values()) if (sandbox.token === token) return sandbox;
    return undefined;
  }

  /** Waits (blocking this thread) for the supervisor's next message of this kind about `token`. */
  waitFor(token: number, type: SupervisorMessage["type"], timeoutMs: number): SupervisorMessage | undefined {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) this.take(m.message as SupervisorMessage);
      const list = this.news.get(token) ?? [];
      const index = list.findIndex((m) => m.type === type);
      if (index >= 0) return list.splice(index, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      Atomics.wait(this.signal, 0, Atomics.load(this.signal, 0), Math.min(left, 50));
    }
  }

  post(message: object): void {
    this.worker.postMessage(message);
  }
}

/**
 * The specs' process and its sandbox take turns (a call, its answer): on one core, each turn is a
 * switch between two processes; across two idle cores, it is a wake-up of a sleeping core, five
 * to ten times slower here. The test process is pinned to the core it runs on now, and the
 * sandboxes it starts inherit that core.
 */
function pinToCurrentCpu(): void {
  if (process.platform !== "linux" || process.env.GRADE_SANDBOX_PIN === "0") return;
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const cpu = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[36];
    execFileSync("taskset", ["-a", "-p", "-c", cpu, String(process.pid)], { stdio: "ignore" });
  } catch {
    // no taskset: unpinned, only slower
  }
}

const HOST_KEY = Symbol.for("tool-use-katas.sandbox-host");
function host(): Host {
  const slot = globalThis as unknown as { [HOST_KEY]?: Host };
  return (slot[HOST_KEY] ??= new Host());
}

const report = (record: object) => {
  const dir = process.env[SANDBOX_REPORT_ENV];
  if (!dir) return;
  try {
    appendFileSync(join(dir, `${process.pid}.jsonl`), JSON.stringify(record) + "\n");
  } catch {
    // the report is advisory: a grade goes on without it
  }
};

/** Set by the bridge: the test running now, as the report names it. */
let currentTest = (): string | undefined => undefined;

/** A process's time on a CPU and waiting for one (every thread), in ms, from the kernel's account (Linux). */
interface Schedule {
  runMs: number;
  waitMs: number;
}

function kernelSchedule(pid: number | undefined): Schedule | undefined {
  if (pid === undefined) return undefined;
  try {
    let run = 0;
    let wait = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const [r, w] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ");
      run += Number(r);
      wait += Number(w);
    }
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return undefined;
  }
}

const kernelCpuMs = (pid: number | undefined): number | undefined => kernelSchedule(pid)?.runMs;

/** How often a load's limits are looked at. */
const LOAD_CHECK_MS = 200;

class Sandbox {
  readonly token: number;
  readonly peer: Peer;
  private dead: string | undefined;
  private exit: Exit | undefined;
  private launcherPid: number | undefined;
  private kataPid: number | undefined;
  /** The pieces of the kata's last load: the exports, as this side calls them. */
  exports: Record<string, unknown> = {};
  /** The sandbox's id of each export that is an object (it crossed under that id). */
  exportIds: Record<string, number> = {};
  realm: { activeTimers?: () => unknown; cpuMicros?: () => unknown; each?: (fn: unknown, argsList: unknown[][], settled: boolean) => unknown } = {};
  generation: Generation | undefined;

  constructor(readonly kataId: string, readonly dir: string, confinement: Confinement) {
    const h = host();
    this.token = h.token();
    const fifoDir = mkdtempSync(join(tmpdir(), "tuk-sandbox-"));
    const toKata = join(fifoDir, "to-kata");
    const toSpecs = join(fifoDir, "to-specs");
    let fds: { kataAsync: number; kataSync: number; kataWrite: number; mineWrite: number; mineAsync: number; mineSync: number };
    try {
      execFileSync("mkfifo", ["-m", "600", toKata, toSpecs]);
      // The order matters: a FIFO opened for writing needs a reader, one opened blocking for
      // reading needs a writer (then neither open waits).
      const kataAsync = openSync(toKata, constants.O_RDONLY | constants.O_NONBLOCK);
      const mineWrite = openSync(toKata, constants.O_WRONLY | constants.O_NONBLOCK);
      const kataSync = openSync(toKata, constants.O_RDONLY);
      const mineAsync = openSync(toSpecs, constants.O_RDONLY | constants.O_NONBLOCK);
      const kataWrite = openSync(toSpecs, constants.O_WRONLY | constants.O_NONBLOCK);
      const mineSync = openSync(toSpecs, constants.O_RDONLY);
      fds = { kataAsync, kataSync, kataWrite, mineWrite, mineAsync, mineSync };
    } finally {
      // The descriptors stay; the names go (nothing else may open them).
      rmSync(fifoDir, { recursive: true, force: true });
    }
    h.post({ type: "spawn", token: this.token, kataId, launch: sandboxLaunch(confinement, dir, join(dir, "runtime.mjs")), fds: [fds.kataAsync, fds.kataSync, fds.kataWrite] });
    const spawned = h.waitFor(this.token, "spawned", START_LIMIT_MS) ?? h.waitFor(this.token, "exit", 0);
    for (const fd of [fds.kataAsync, fds.kataSync, fds.kataWrite]) closeSync(fd);
    if (spawned?.type === "spawned") this.launcherPid = spawned.pid;
    this.kataPid = confinement.level === "namespaces" ? undefined : this.launcherPid;
    this.peer = new Peer({
      fds: { asyncRead: fds.mineAsync, syncRead: fds.mineSync, write: fds.mineWrite },
      callable: () => true,
      keepAlive: false,
      answersKeepIdentity: true,
      onClose: (why) => this.closed(why),
      onBlock: (blocked) => {
        h.state[0] = blocked ? this.token : 0;
        h.state[1] = blocked ? Date.now() : 0;
      },
    });
    if (spawned?.type !== "spawned") this.peer.channel.close(`the sandbox could not start: ${spawned?.killedFor ?? "no answer from its supervisor"}`);
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  /** Whether its node process exists yet (namespaced: unshare's child, which becomes node). */
  get processExists(): boolean {
    return this.pid() !== undefined;
  }

  /** The pid of the sandbox's node process, as this process sees it (the child of unshare). */
  private pid(): number | undefined {
    if (this.kataPid !== undefined || this.launcherPid === undefined) return this.kataPid;
    try {
      const children = readFileSync(`/proc/${this.launcherPid}/task/${this.launcherPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      if (children.length > 0) this.kataPid = Number(children[0]);
    } catch {
      // no /proc
    }
    return this.kataPid;
  }

  /** Its time on a CPU and waiting for one since it was started (unshare's included), from the kernel; undefined without /proc. */
  schedule(): Schedule | undefined {
    const launcher = kernelSchedule(this.launcherPid);
    const pid = this.pid();
    if (pid === this.launcherPid) return launcher;
    const kata = kernelSchedule(pid);
    if (!launcher) return undefined;
    return kata ? { runMs: launcher.runMs + kata.runMs, waitMs: launcher.waitMs + kata.waitMs } : launcher;
  }

  cpuMs(): number | undefined {
    const kernel = kernelCpuMs(this.pid());
    if (kernel !== undefined) return kernel;
    // No /proc: the sandbox's own account, which the graded code could falsify (for its own complexity checks only).
    const micros = this.alive ? this.realm.cpuMicros?.() : undefined;
    return typeof micros === "number" ? micros / 1000 : undefined;
  }

  exited(exit: Exit): void {
    if (this.exit) return;
    this.exit = exit;
    report({ kata: this.kataId, event: "exit", outputBytes: exit.outputBytes, why: describeExit(exit), test: currentTest() });
    this.peer.channel.close(describeExit(exit));
  }

  private closed(why: string): void {
    if (this.dead !== undefined) return;
    this.dead = why;
  }

  kill(why: string): void {
    host().post({ type: "kill", token: this.token, why });
  }

  /** Why it died, in words for the test that was waiting on it. */
  cause(): string {
    if (!this.exit) {
      // The channel closed first: the supervisor's word on the exit follows.
      const exit = host().waitFor(this.token, "exit", 2000) as unknown as Exit | undefined;
      if (exit) this.exited(exit);
    }
    return this.exit ? describeExit(this.exit) : (this.dead ?? "it ended");
  }
}

function describeExit(exit: Exit): string {
  if (exit.killedFor) return exit.killedFor;
  if (/heap out of memory|Allocation failed/i.test(exit.tail)) return "it ran out of memory (the sandbox's heap is capped)";
  if (exit.signal) return `it was ended by ${exit.signal}`;
  return `it exited with code ${exit.code}${exit.tail.trim() ? `: ${exit.tail.trim().split("\n").slice(-3).join(" / ").slice(0, 300)}` : ""}`;
}

/** The kata as the bridge sees it: its exports (functions that call into the sandbox). */
export interface KataLink {
  /** An export of the kata: a function calls the kata in its sandbox; anything else is its value when the file loaded. */
  export<T>(name: string): T;
  /** What realm.ts asks, answered by the kata's sandbox: the bridge hands it to realm.ts's useRealm. */
  readonly realm: Realm;
}

let generations = 0;

/** The bridge's functions, and the kata export each calls. */
const trampolines = new WeakMap<Function, { link: Link; name: string }>();

class Link implements KataLink {
  private sandbox: Sandbox;
  private starts = 1;
  readonly realm: Realm = realmOf(() => this.sandbox);

  constructor(private readonly kataId: string, private readonly spec: KataSpec, sandbox: Sandbox) {
    this.sandbox = sandbox;
  }

  /** The objects the bridge exported, kept for the spec file's life: a new sandbox's exports move into them. */
  private readonly stable = new Map<string, object>();

  export<T>(name: string): T {
    const value = this.sandbox.exports[name];
    if (typeof value !== "function") {
      if (typeof value === "object" && value !== null) this.stable.set(name, value);
      return value as T;
    }
    const link = this;
    const trampoline = function (this: unknown, ...args: unknown[]): unknown {
      return link.call(name, this, args);
    };
    Object.defineProperty(trampoline, "name", { value: (value as Function).name });
    Object.defineProperty(trampoline, "length", { value: (value as Function).length });
    trampolines.set(trampoline, { link, name });
    return trampoline as T;
  }

  /** realm.ts's callEach of one of the kata's exports: the loop's calls in one round trip. */
  each(name: string, argsList: readonly (readonly unknown[])[], settled: boolean): Settled<unknown>[] {
    forgetCall();
    if (!this.sandbox.alive) this.restart();
    const fn = this.sandbox.exports[name];
    if (typeof fn !== "function" || typeof this.sandbox.realm.each !== "function") {
      throw new TypeError(`${name} is not a function`);
    }
    let answer: { values: unknown[]; threw: boolean; error?: unknown; errors?: Array<[number, unknown]> };
    try {
      answer = this.sandbox.realm.each(fn, argsList.map((args) => [...args]), settled) as typeof answer;
    } catch (error) {
      if (error instanceof PeerGone && !this.sandbox.alive) throw new Error(`the graded code's process ended while ${name}() ran: ${this.sandbox.cause()}`);
      throw error;
    }
    if (answer.threw) throw answer.error;
    const out: Settled<unknown>[] = answer.values.map((value) => ({ ok: true, value }));
    for (const [i, error] of answer.errors ?? []) out[i] = { ok: false, error };
    return out;
  }

  private call(name: string, self: unknown, args: unknown[]): unknown {
    noteCall(currentTest(), name, args);
    if (!this.sandbox.alive) this.restart();
    const fn = this.sandbox.exports[name];
    if (typeof fn !== "function") throw new TypeError(`${name} is not a function`);
    try {
      return Reflect.apply(fn, self, args);
    } catch (error) {
      if (error instanceof PeerGone && !this.sandbox.alive) throw new Error(`the graded code's process ended while ${name}() ran: ${this.sandbox.cause()}`);
      throw error;
    }
  }

  private restart(): void {
    if (this.starts >= MAX_STARTS) throw new Error(`the graded code's process ended ${this.starts} times in this spec file, and is not started again: ${this.sandbox.cause()}`);
    this.starts++;
    this.sandbox = startSandbox(this.kataId);
    loadSync(this.sandbox, this.spec);
    // An exported object (kata 1's calculateTool, kata 3's systemClock) the specs hold stays the
    // one they hold: the new sandbox's export moves into it, and is recognised as it from now on.
    for (const [name, held] of this.stable) {
      const fresh = this.sandbox.exports[name];
      const id = this.sandbox.exportIds[name];
      if (typeof fresh !== "object" || fresh === null || id === undefined || Object.isFrozen(held)) continue;
      for (const key of Reflect.ownKeys(held)) Reflect.deleteProperty(held, key);
      Object.defineProperties(held, Object.getOwnPropertyDescriptors(fresh));
      Object.setPrototypeOf(held, Object.getPrototypeOf(fresh));
      this.sandbox.generation!.identities.setMirror(id, held);
      this.sandbox.exports[name] = held;
    }
  }
}

function sandboxDir(kataId: string): string {
  const root = process.env[SANDBOX_ROOT_ENV];
  if (!root) throw new Error(`${SANDBOX_ROOT_ENV} is not set: the sandbox's bridge is for graded runs only`);
  return join(root, kataId);
}

function startSandbox(kataId: string): Sandbox {
  const h = host();
  const sandbox = new Sandbox(kataId, sandboxDir(kataId), confinementFromEnv());
  h.sandboxes.set(kataId, sandbox);
  return sandbox;
}

function loadMessage(sandbox: Sandbox, spec: KataSpec): { [key: string]: Json } {
  const g = ++generations;
  sandbox.generation = sandbox.peer.newGeneration(g, spec.classes);
  return { t: "load", g, url: pathToFileURL(join(sandbox.dir, "kata.mjs")).href, classes: Object.keys(spec.classes), methods: spec.methods };
}

function takeLoad(sandbox: Sandbox, answer: { [key: string]: Json }): void {
  const gen = sandbox.generation!;
  if (answer.t === "err") {
    // What the kata threw at import, as the specs would have seen it.
    sandbox.peer.answer(gen, answer);
  }
  const decoder = gen.codec.decoder(answer.o);
  const decodeTable = (table: Json | undefined) => {
    const out: Record<string, unknown> = {};
    if (table !== null && typeof table === "object" && !Array.isArray(table)) for (const name of Object.keys(table)) out[name] = decoder.slot(table[name]);
    return out;
  };
  sandbox.exports = decodeTable(answer.exports);
  sandbox.realm = decodeTable(answer.realm) as Sandbox["realm"];
  decoder.finish();
  sandbox.exportIds = {};
  const table = answer.exports;
  if (table !== null && typeof table === "object" && !Array.isArray(table)) {
    for (const [name, slot] of Object.entries(table)) {
      if (slot !== null && typeof slot === "object" && !Array.isArray(slot) && typeof slot.id === "number") sandbox.exportIds[name] = slot.id;
    }
  }
}

/** What realm.ts asks, answered by the kata's sandbox (the current one: a restart replaces it). */
function realmOf(current: () => Sandbox): Realm {
  return {
    afterIdle: (callback) => afterBothIdle(current(), callback),
    cpuTimeMs(run) {
      const before = current().cpuMs();
      run();
      const after = current().cpuMs();
      return before === undefined || after === undefined ? 0 : after - before;
    },
    activeTimers: () => Number(current().realm.activeTimers?.()),
    helperCpuMs: () => current().cpuMs() ?? 0,
    callEach: <A extends readonly unknown[], R>(fn: (...args: A) => R, argsList: readonly A[]): R[] => {
      const bridged = trampolines.get(fn);
      return bridged ? bridged.link.each(bridged.name, argsList, false).map((s) => (s as { value: R }).value) : argsList.map((args) => fn(...args));
    },
    callEachSettled: <A extends readonly unknown[], R>(fn: (...args: A) => R, argsList: readonly A[]): Settled<R>[] => {
      const bridged = trampolines.get(fn);
      if (bridged) return bridged.link.each(bridged.name, argsList, true) as Settled<R>[];
      return argsList.map((args) => {
        try {
          return { ok: true, value: fn(...args) };
        } catch (error) {
          return { ok: false, error };
        }
      });
    },
  };
}

/**
 * Both processes idle: this one's microtasks done (setImmediate), then the sandbox's (it answers
 * the quiet handshake after its own setImmediate), with no message crossing meanwhile in either
 * direction; otherwise what crossed may have started something, and the check starts over.
 */
function afterBothIdle(sandbox: Sandbox, callback: () => void): void {
  const attempt = () => {
    setImmediate(() => {
      if (!sandbox.alive || sandbox.peer.quietNow()) callback();
      else attempt();
    });
  };
  attempt();
}

function loadFailure(sandbox: Sandbox, error: unknown): unknown {
  if (error instanceof PeerGone || !sandbox.alive) return new Error(`the kata did not load: its process ended: ${sandbox.cause()}`);
  return error;
}

function loadSync(sandbox: Sandbox, spec: KataSpec): void {
  try {
    takeLoad(sandbox, sandbox.peer.request(loadMessage(sandbox, spec)));
  } catch (error) {
    throw loadFailure(sandbox, error);
  }
}

/**
 * Stops a sandbox whose load takes LOAD_CPU_LIMIT_MS of its CPU time (an endless loop at import) or
 * sits idle for LOAD_LIMIT_MS (a top-level await that never settles). Both count from the moment
 * its process exists: a sandbox started for this load may wait for the machine first (see
 * START_LIMIT_MS), which is no code's doing. The verdict waits for one turn of the event loop past
 * its timer, so an answer that has arrived is read first, however busy this process was.
 */
function loadLimit(sandbox: Sandbox, fresh: boolean): { stop(): void; readonly notStarted: boolean } {
  const asked = Date.now();
  let began: number | undefined;
  let start: Schedule | undefined;
  const begin = () => {
    began = Date.now();
    start = sandbox.schedule();
  };
  if (!fresh) begin();
  let stopped = false;
  /** Stopped before its process existed: the machine's failure, not the kata's. */
  let notStarted = false;
  const why = (cause: string) => `the kata did not finish loading: ${cause} (an endless loop, or a promise that never settles, at import?), so its process was stopped`;
  const verdict = (): string | undefined => {
    if (began === undefined) {
      if (sandbox.processExists) begin();
      else return Date.now() - asked > START_LIMIT_MS ? `${NOT_STARTED} within ${START_LIMIT_MS / 1000} s (the machine, not the kata), so it was stopped` : undefined;
    }
    const wall = Date.now() - began!;
    const now = start ? sandbox.schedule() : undefined;
    // No kernel account (no /proc): wall time stands in for both.
    if (!start || !now) return wall > LOAD_LIMIT_MS ? why(`not within ${LOAD_LIMIT_MS / 1000} s`) : undefined;
    const cpu = now.runMs - start.runMs;
    const idle = wall - cpu - (now.waitMs - start.waitMs);
    if (cpu > LOAD_CPU_LIMIT_MS) return why(`it took ${LOAD_CPU_LIMIT_MS / 1000} s of CPU time`);
    if (idle > LOAD_LIMIT_MS) return why(`it sat idle for ${LOAD_LIMIT_MS / 1000} s`);
    return undefined;
  };
  const timer = setInterval(() => {
    if (!verdict()) return;
    setImmediate(() => {
      const cause = stopped ? undefined : verdict();
      if (!cause) return;
      notStarted = began === undefined;
      sandbox.kill(cause);
    });
  }, LOAD_CHECK_MS);
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    get notStarted() {
      return notStarted;
    },
  };
}

/** Loads the kata for this spec file (starting its sandbox if need be) and returns its exports. */
export async function connect(kataId: string, spec: KataSpec): Promise<KataLink> {
  if (spec.currentTest) currentTest = spec.currentTest;
  const h = host();
  // A kata whose load ended its process (or was stopped) once in this test process does so for
  // every spec file: the next files fail at once, rather than each waiting out LOAD_LIMIT_MS.
  const failed = h.loadFailures.get(kataId);
  if (failed) throw new Error(failed);
  const running = h.sandboxes.get(kataId);
  const fresh = !running || !running.alive;
  const sandbox = fresh ? startSandbox(kataId) : running;
  const request = sandbox.peer.requestAsync(loadMessage(sandbox, spec));
  const limit = loadLimit(sandbox, fresh);
  try {
    takeLoad(sandbox, await request);
  } catch (error) {
    const failure = loadFailure(sandbox, error);
    // A kata that could not load fails every later file at once; a machine too busy to start a process may do better for the next.
    if (!sandbox.alive && !limit.notStarted) h.loadFailures.set(kataId, (failure as Error).message);
    throw failure;
  } finally {
    limit.stop();
  }
  return new Link(kataId, spec, sandbox);
}

// The sandboxes' keeper: a worker thread of the specs' process (client.ts starts it), because the
// specs' own thread cannot watch anything while it waits for a sandbox's answer. It
// - starts each sandbox process (confinement.ts's command), in a process group of its own;
// - reads the sandbox's stdout and stderr all the time, so a kata that prints 50 MB never blocks
//   on a full pipe while the specs wait for it; it keeps the byte count and the last 64 KB;
// - kills a sandbox that keeps the specs waiting too long on one call: more than cpuLimitMs of
//   the sandbox's own CPU time (read by the kernel, in /proc, where there is one), or more than
//   wallLimitMs during which it sat idle, neither running nor waiting for a CPU (a wait that
//   never ends). Neither grows on a busy machine, so load never costs an honest kata a call;
//   without /proc, wall time stands in;
// - says how each sandbox ended.
// Plain JavaScript: a worker thread does not get the specs' TypeScript loader.
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, readdirSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

const TAIL_BYTES = 64 * 1024;
const { state, cpuLimitMs, wallLimitMs, port, reportFile } = workerData;
/** The grader reads how much each sandbox printed from here: the specs' thread may be gone first. */
const OUTPUT_STEP = 1024 * 1024;
const reportOutput = (entry) => {
  if (!reportFile) return;
  try {
    appendFileSync(reportFile, JSON.stringify({ kata: entry.kataId, event: "output", outputBytes: entry.outputBytes, why: "" }) + "\n");
  } catch {
    // advisory
  }
};
// state (Float64Array over a SharedArrayBuffer), written by the specs' thread:
//   [0] the token of the sandbox it is waiting on, [1] since when (Date.now()), 0 when not waiting.
// What it tells the specs' thread goes through `port`, which that thread can read while it blocks,
// and each message bumps `signal`, on which it sleeps.
const view = new Float64Array(state);
const signal = new Int32Array(workerData.signal);
const tell = (message) => {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
};

/** token -> { child, pid (the sandbox's node process), output, tail, killedFor, atBlock, blockedSince } */
const sandboxes = new Map();

function nodePid(entry) {
  if (entry.pid !== undefined) return entry.pid;
  if (!entry.viaUnshare) return (entry.pid = entry.child.pid);
  try {
    const children = readFileSync(`/proc/${entry.child.pid}/task/${entry.child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    if (children.length > 0) entry.pid = Number(children[0]);
  } catch {
    // not yet, or no /proc
  }
  return entry.pid;
}

/** A process's time on a CPU and waiting for one, in ms, from the kernel's account (every thread); undefined without /proc. */
function schedule(pid) {
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

const cpuMs = (pid) => schedule(pid)?.runMs;

function kill(entry, why) {
  if (entry.exited) return;
  entry.killedFor ??= why;
  try {
    process.kill(-entry.child.pid, "SIGKILL");
  } catch {
    try {
      entry.child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
}

parentPort.on("message", (message) => {
  if (message.type === "spawn") {
    const { token, launch, fds } = message;
    let child;
    try {
      child = spawn(launch.command, launch.args, {
        stdio: ["ignore", "pipe", "pipe", ...fds],
        detached: true,
        env: launch.env,
        cwd: launch.cwd,
        ...(launch.uid !== undefined ? { uid: launch.uid, gid: launch.gid } : {}),
      });
    } catch (error) {
      tell({ type: "exit", token, code: null, signal: null, outputBytes: 0, tail: "", killedFor: `could not start: ${error.message}` });
      return;
    }
    const entry = { child, kataId: message.kataId, viaUnshare: launch.command.endsWith("unshare"), outputBytes: 0, reported: 0, tail: "", killedFor: undefined, exited: false, blockedSince: 0, atBlock: undefined };
    sandboxes.set(token, entry);
    const keep = (chunk) => {
      entry.outputBytes += chunk.length;
      entry.tail = (entry.tail + chunk.toString("utf8")).slice(-TAIL_BYTES);
      if (entry.outputBytes - entry.reported >= OUTPUT_STEP) {
        entry.reported = entry.outputBytes;
        reportOutput(entry);
      }
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (error) => {
      entry.killedFor ??= `could not start: ${error.message}`;
    });
    child.on("close", (code, sig) => {
      entry.exited = true;
      if (entry.outputBytes > entry.reported) reportOutput(entry);
      sandboxes.delete(token);
      tell({ type: "exit", token, code, signal: sig, outputBytes: entry.outputBytes, tail: entry.tail, killedFor: entry.killedFor });
    });
    tell({ type: "spawned", token, pid: child.pid });
  } else if (message.type === "kill") {
    const entry = sandboxes.get(message.token);
    if (entry) kill(entry, message.why);
  } else if (message.type === "cpu") {
    const entry = sandboxes.get(message.token);
    tell({ type: "cpu", token: message.token, ms: entry ? cpuMs(nodePid(entry)) : undefined });
  } else if (message.type === "stop") {
    for (const entry of sandboxes.values()) kill(entry, "the specs' process ended");
  }
});

setInterval(() => {
  const token = view[0];
  const since = view[1];
  for (const [t, entry] of sandboxes) {
    if (t !== token || since === 0) {
      entry.blockedSince = 0;
      continue;
    }
    if (entry.blockedSince !== since) {
      entry.blockedSince = since;
      entry.atBlock = schedule(nodePid(entry));
    }
    const wall = Date.now() - since;
    const now = entry.atBlock === undefined ? undefined : schedule(nodePid(entry));
    const cpu = now === undefined ? undefined : now.runMs - entry.atBlock.runMs;
    const idle = now === undefined ? wall : wall - cpu - (now.waitMs - entry.atBlock.waitMs);
    if (cpu !== undefined && cpu > cpuLimitMs) kill(entry, `a call took more than ${cpuLimitMs / 1000} s of CPU time without returning (an endless loop?), so its process was stopped`);
    else if (idle > wallLimitMs) kill(entry, `a call did not return within ${wallLimitMs / 1000} s${now === undefined ? "" : " of its process sitting idle"}, so its process was stopped`);
  }
}, 25).unref();

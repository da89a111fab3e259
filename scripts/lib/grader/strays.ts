// A sandbox can outlive its test process: its keeper (spec/support/sandbox/supervisor.mjs) is a
// thread of that process, and when the process is killed (the run's time limit, a crash), a
// sandbox stuck in an endless loop spins on, in a process group and, under unshare, a parent of
// its own, taking a core for as long as the machine runs. The grader outlives every run: when one
// ends, it stops whatever process still runs that run's sandboxes, found by the folder on their
// command line (the one their permissions are given for).
import { spawnSync } from "node:child_process";

/** Kills (SIGKILL) every process whose command line holds `folder`; returns how many it found. */
export function stopStrays(folder: string): number {
  // `ps` is on every Unix; where there is none (Windows), there is no stray to find this way.
  const listed = spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0 || !listed.stdout) return 0;
  let found = 0;
  for (const line of listed.stdout.split("\n")) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match || !match[2].includes(folder) || Number(match[1]) === process.pid) continue;
    found++;
    try {
      process.kill(Number(match[1]), "SIGKILL");
    } catch {
      // gone already, or not ours to stop
    }
  }
  return found;
}

// Ends a candidate's grade that ran over its budget: the grade process and everything under it.
// The grader starts each kata's vitest in a process group of its own (vitest-child.ts), so killing
// the grade's group alone would leave vitest and the candidate's code running with nobody to stop
// them. The tree is read before anything is killed: once the grade is gone, its children are
// re-parented and can no longer be told from anyone else's.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, readlinkSync } from "node:fs";

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
}

function processTable(): ProcessEntry[] {
  if (existsSync("/proc/self/stat")) {
    return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).flatMap((name) => {
      try {
        // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const [, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return [{ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid) }];
      } catch {
        return []; // Ended while we read.
      }
    });
  }
  const listed = spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8" });
  return listed.stdout.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    return { pid, ppid, pgid };
  });
}

/** `root` and every process under it, parents first. */
function descendants(root: number, table: readonly ProcessEntry[]): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const entry = table.find((p) => p.pid === pid);
    if (entry) found.push(entry);
    for (const child of table.filter((p) => p.ppid === pid)) queue.push(child.pid);
  }
  return found;
}

/** Where each process works (Linux only): a vitest run works in its sealed workspace. */
function workingFolders(pids: readonly number[]): string[] {
  return pids.flatMap((pid) => {
    try {
      return [readlinkSync(`/proc/${pid}/cwd`)];
    } catch {
      return [];
    }
  });
}

const signal = (target: number) => {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // Already gone, or not a group.
  }
};

/**
 * Kills `pid`, every process under it and their process groups. Returns the working folders the
 * killed processes had, so that the caller can remove the sealed workspaces the grade left behind.
 */
export function killTree(pid: number): string[] {
  if (process.platform === "win32") {
    spawnSync("taskkill", ["/T", "/F", "/PID", String(pid)]);
    return [];
  }
  // Stopped first, so that it starts nothing new while its tree is read.
  try {
    process.kill(pid, "SIGSTOP");
  } catch {
    return [];
  }
  const table = processTable();
  const tree = descendants(pid, table);
  const ownGroup = table.find((p) => p.pid === process.pid)?.pgid;
  const folders = workingFolders(tree.map((p) => p.pid));
  for (const p of tree) signal(p.pid);
  for (const group of new Set(tree.map((p) => p.pgid))) if (group > 1 && group !== ownGroup) signal(-group);
  return folders;
}

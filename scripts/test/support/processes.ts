// Which processes are still running with a given line in their environment (Linux's /proc): how a
// test finds what a command left behind. Elsewhere the answer is an empty list.
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Each such process as its working folder (or its pid when that cannot be read). */
export function processesWithEnv(entry: string): string[] {
  if (!existsSync("/proc/self/environ")) return [];
  return readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid) && Number(pid) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(entry);
      } catch {
        return false;
      }
    })
    .map((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        return pid;
      }
    });
}

/** Waits until no process has `entry` in its environment; returns those still there after `ms`. */
export async function untilNoProcessWithEnv(entry: string, ms: number): Promise<string[]> {
  const deadline = performance.now() + ms;
  for (;;) {
    const left = processesWithEnv(entry);
    if (left.length === 0 || performance.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

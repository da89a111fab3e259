// The grader as it was before the sandbox (issue 23 measures the sandboxed grade against it): a
// checkout of that commit beside this one, sharing this one's node_modules, so both grade the
// same references with the same tools in the same run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

/** The last commit of the in-process grader (canaries, signed verdicts, confined test workers). */
export const BEFORE_SANDBOX = "4cfe2e3";

export interface Checkout {
  dir: string;
  remove(): void;
}

/** A detached worktree of `commit`, or why there is none (a shallow clone lacks the commit). */
export function checkoutOf(commit: string): Checkout | string {
  const git = (args: string[]) => spawnSync("git", args, { cwd: PROJECT_ROOT, encoding: "utf8" });
  if (git(["cat-file", "-e", `${commit}^{commit}`]).status !== 0) return `commit ${commit} is not in this clone (a shallow clone? git fetch --unshallow)`;
  const dir = join(mkdtempSync(join(tmpdir(), "tuk-before-")), "checkout");
  const added = git(["worktree", "add", "--detach", dir, commit]);
  if (added.status !== 0) return `git worktree add failed: ${added.stderr.trim()}`;
  if (!existsSync(join(dir, "node_modules"))) symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return {
    dir,
    remove() {
      git(["worktree", "remove", "--force", dir]);
      rmSync(join(dir, ".."), { recursive: true, force: true });
    },
  };
}

/**
 * The whole machine's busy CPU time so far, in ms (Linux: /proc/stat), or undefined. The grade's
 * own account of its children misses its sandboxes: each is the first process of a PID namespace,
 * and one stopped at the end is reaped outside the grade's process tree. On an otherwise idle
 * machine, the busy time over a run is that run's CPU time.
 */
export function machineBusyMs(): number | undefined {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return undefined;
  }
}

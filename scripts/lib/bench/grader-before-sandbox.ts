// Code as it was at an older commit, beside this checkout's: the grader before the sandbox (the
// sandboxed grade is measured against it) and kata 1's parser before its rewrite. Each is a copy
// of the commit's files (`git archive`, which reads the repository and changes nothing in it) in
// a temporary folder; a whole checkout shares this one's node_modules, so both sides grade the
// same references with the same tools in the same run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

/** The last commit of the grader that ran the graded code in the specs' own processes. */
export const BEFORE_SANDBOX = "4cfe2e3";

export interface Checkout {
  dir: string;
  remove(): void;
}

/**
 * The files of `commit` (all of them, or only those under `paths`) in a new temporary folder, or
 * why there are none (a shallow clone lacks the commit).
 */
export function exportTree(commit: string, paths: string[] = []): Checkout | string {
  const git = (args: string[]) => spawnSync("git", args, { cwd: PROJECT_ROOT, encoding: "buffer", maxBuffer: 1 << 30 });
  if (git(["cat-file", "-e", `${commit}^{commit}`]).status !== 0) return `commit ${commit} is not in this clone (a shallow clone? git fetch --unshallow)`;
  const archive = git(["archive", "--format=tar", commit, ...paths]);
  if (archive.status !== 0) return `git archive failed: ${archive.stderr.toString().trim()}`;
  const root = mkdtempSync(join(tmpdir(), "tuk-before-"));
  const dir = join(root, "checkout");
  mkdirSync(dir);
  const unpacked = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
  if (unpacked.status !== 0) {
    rmSync(root, { recursive: true, force: true });
    return `tar failed: ${unpacked.stderr.toString().trim()}`;
  }
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A whole copy of `commit` that runs with this checkout's node_modules, or why there is none. */
export function checkoutOf(commit: string): Checkout | string {
  const tree = exportTree(commit);
  if (typeof tree === "string") return tree;
  if (!existsSync(join(tree.dir, "node_modules"))) symlinkSync(join(PROJECT_ROOT, "node_modules"), join(tree.dir, "node_modules"), "dir");
  return tree;
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

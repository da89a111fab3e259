// The only files a graded run can see. The graded code runs in the same process as the specs, so
// whatever that process can read, the graded code can read: the interviewer's clone, with its
// reference solutions, fixtures and bank, must not be among it. A sealed workspace holds what the
// specs need (their helpers, their data, the graded katas' specs, the bank only when it is graded)
// and a copy of each graded kata folder, and nothing else.
//
// It lives under the project's `.grade/` folder rather than in the system's temporary folder so
// that the specs find `node_modules` by walking up, as Node does: a `node_modules` symlink inside
// the workspace would be a way out of it (the permission model checks a path as written, while the
// kernel follows the link and then the `..`).
import { copyFileSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

export const SEALED_PARENT = join(PROJECT_ROOT, ".grade", "sealed");

export interface SealedWorkspace {
  /** The workspace's root: the graded run's working folder and vite root. */
  root: string;
  /** `<root>/impl`: holds the graded kata folders, as an impl root does. */
  implRoot: string;
  /** Where the test workers may write (their progress logs), and nowhere else. */
  writable: string;
  /** The transform cache vitest hands to its workers (its TMPDIR). */
  tmp: string;
  /** What the copy left out of the graded kata folder, and why (symlinks, nested node_modules). */
  skipped: string[];
  remove(): void;
}

export interface SealOptions {
  kataIds: string[];
  /** The folder holding the graded `NN-name` folders. */
  implRoot: string;
  includeBank: boolean;
}

/**
 * Copies regular files only: a symlink in a candidate's folder could point at the interviewer's
 * files. With `link`, a file is hard-linked where it can be (same file system) rather than copied:
 * for the specs, their helpers and data, which nothing in a graded run can write (the test workers
 * may write only in their progress folder), and which are most of a workspace's files: copying
 * them was most of the grader's own time. A candidate's files are always copied, so that a save
 * during a grade does not change what is being graded.
 */
function copyTree(from: string, to: string, skip: (rel: string) => boolean, skipped: string[], link = false, base = from): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const rel = relative(base, source).split("\\").join("/");
    if (skip(rel)) continue;
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) skipped.push(`${rel}: a symbolic link (not copied: a kata's files are its own)`);
    else if (stat.isDirectory()) {
      if (name === "node_modules") skipped.push(`${rel}: a node_modules folder (not copied: a kata has no dependencies)`);
      else copyTree(source, join(to, name), skip, skipped, link, base);
    } else if (stat.isFile()) {
      if (!link || !tryLink(source, join(to, name))) copyFileSync(source, join(to, name));
    }
  }
}

function tryLink(source: string, target: string): boolean {
  try {
    linkSync(source, target);
    return true;
  } catch {
    return false; // another file system, or one without hard links
  }
}

export function sealWorkspace(options: SealOptions): SealedWorkspace {
  mkdirSync(SEALED_PARENT, { recursive: true });
  const root = mkdtempSync(join(SEALED_PARENT, `${options.kataIds.length === 1 ? options.kataIds[0] : "katas"}-`));
  const skipped: string[] = [];
  const spec = join(PROJECT_ROOT, "spec");
  const none = () => false;
  copyTree(join(spec, "support"), join(root, "spec", "support"), none, skipped, true);
  copyTree(join(spec, "data"), join(root, "spec", "data"), none, skipped, true);
  const implRoot = join(root, "impl");
  const kataSkipped: string[] = [];
  for (const kataId of options.kataIds) {
    copyTree(join(spec, kataId), join(root, "spec", kataId), (rel) => !options.includeBank && rel === "bank", skipped, true);
    const mine: string[] = [];
    copyTree(join(options.implRoot, kataId), join(implRoot, kataId), none, mine);
    kataSkipped.push(...mine.map((s) => `${kataId}/${s}`));
  }
  const writable = join(root, ".progress");
  const tmp = join(root, ".tmp");
  mkdirSync(writable);
  mkdirSync(tmp);
  return {
    root,
    implRoot,
    writable,
    tmp,
    skipped: kataSkipped,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

// The candidates of a round: one per folder given on the command line, each with a name that is
// unique in the round and safe as a file name (it names the candidate's results folder and report).
import { basename, dirname, resolve } from "node:path";
import { resolveImplRoot } from "../impl-root.ts";

export interface Candidate {
  /** Unique in the round: the folder's name, its parent's name first when two folders share one. */
  name: string;
  /** The folder as given, absolute. */
  dir: string;
  /** The folder that holds the `NN-name` kata folders (a checkout's `katas/`, as `--impl` takes it). */
  implRoot: string;
}

const safe = (text: string) => text.replace(/[^\w.-]+/g, "_").replace(/^\.+/, "_") || "_";

export function candidatesOf(dirs: readonly string[], cwd: string): Candidate[] {
  const resolved = dirs.map((dir) => resolve(cwd, dir));
  const names = resolved.map((dir) => safe(basename(dir)));
  const taken = new Set<string>();
  return resolved.map((dir, i) => {
    // Two checkouts called `candidate` in different folders: name them by their parents too.
    let name = names.filter((n) => n === names[i]).length > 1 ? `${safe(basename(dirname(dir)))}-${names[i]}` : names[i];
    for (let n = 2; taken.has(name); n++) name = `${names[i]}-${n}`;
    taken.add(name);
    return { name, dir, implRoot: resolveImplRoot(dir, cwd) };
  });
}

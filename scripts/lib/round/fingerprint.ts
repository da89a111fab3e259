// Whether a candidate's code changed since its last grade: a sha256 over its kata folders (every
// file's path and bytes) and what the grade depended on besides (the options, the specs' manifest).
// Equal fingerprints mean the stored results still stand, so a re-run can skip the candidate.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Every regular file and symlink under `dir`, as sorted relative paths (what the sealed copy sees, and more). */
function filesUnder(dir: string, under = ""): string[] {
  return readdirSync(join(dir, under))
    .sort()
    .flatMap((name) => {
      const rel = under === "" ? name : `${under}/${name}`;
      const stat = lstatSync(join(dir, rel));
      return stat.isDirectory() ? filesUnder(dir, rel) : [rel];
    });
}

/** `kataIds`: the graded katas; a kata folder the candidate lacks counts as absent, which is a state too. */
export function fingerprint(implRoot: string, kataIds: readonly string[], context: unknown): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(context));
  for (const kata of kataIds) {
    const folder = join(implRoot, kata);
    if (!existsSync(folder)) {
      hash.update(`\0absent ${kata}\0`);
      continue;
    }
    for (const file of filesUnder(folder)) {
      const path = join(folder, file);
      const stat = lstatSync(path);
      hash.update(`\0${kata}/${file}\0`);
      hash.update(stat.isSymbolicLink() ? "symlink" : readFileSync(path));
    }
  }
  return hash.digest("hex");
}

// Where the code under test lives. One rule, shared by vitest.config.ts and every script,
// so that `KATA_IMPL=solutions npm run spec` and `npm run grade -- --impl solutions` agree.
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Turns `katas` (the default), `solutions`, a relative or absolute path to another checkout's
 * root, or a path to a folder that directly holds `NN-name` kata folders, into the absolute
 * folder that holds the kata folders.
 */
export function resolveImplRoot(spec: string | undefined, cwd: string = PROJECT_ROOT): string {
  const wanted = spec && spec.trim() !== "" ? spec.trim() : "katas";
  const base = isAbsolute(wanted) ? wanted : resolve(cwd, wanted);
  if (!existsSync(base) || !statSync(base).isDirectory()) {
    throw new Error(`implementation folder not found: ${wanted} (looked at ${base})`);
  }
  // A checkout's root holds `katas/`: grade the candidate's workspace inside it.
  const nested = join(base, "katas");
  if (existsSync(nested) && statSync(nested).isDirectory()) return nested;
  return base;
}

// `npm run grade -- --only TEXT`: the tests a narrowed grade runs and scores, chosen by name.
import { UsageError } from "../cli-args.ts";
import type { Kata } from "./katas.ts";
import type { Manifest } from "./manifest.ts";
import { expectedTests } from "./run-kata.ts";
import { splitTag } from "./test-result.ts";

/**
 * `--only TEXT ...`: per kata, the full names (as in the manifest) of the tests whose reported name,
 * "NN-kata > task > test" without the level tag, contains one of the texts; `undefined` when that
 * is every test of the kata, which is then graded as a whole, as without --only. Katas with none
 * are left out.
 */
export function chooseTests(manifest: Manifest, katas: Kata[], patterns: string[], includeBank: boolean): Map<string, Set<string> | undefined> {
  const chosen = new Map<string, Set<string> | undefined>();
  for (const kata of katas) {
    const entry = manifest.katas[kata.id];
    if (!entry) continue;
    const all = expectedTests(entry, { includeBank }).map((t) => t.name);
    const names = all.filter((name) => patterns.some((p) => `${kata.id} > ${splitTag(name).name}`.includes(p)));
    if (names.length > 0) chosen.set(kata.id, names.length === all.length ? undefined : new Set(names));
  }
  if (chosen.size === 0) {
    throw new UsageError(`--only: no test${includeBank ? "" : " outside the bank"} of the chosen katas has a name containing ${patterns.map((p) => JSON.stringify(p)).join(" or ")}`);
  }
  return chosen;
}

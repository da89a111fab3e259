// `npm run grade -- --only TEXT`, `--level 1` and `--core`: the tests a narrowed grade runs and
// scores, chosen by name, by level, by the core mark, or by several (a test must then answer all).
import type { Level } from "../../../spec/support/test-tag.ts";
import { UsageError } from "../cli-args.ts";
import type { Kata } from "./katas.ts";
import type { Manifest } from "./manifest.ts";
import { expectedTests } from "./expected.ts";
import { splitTag } from "./test-result.ts";

/**
 * Per kata, the full names (as in the manifest) of the tests whose reported name, "NN-kata > task >
 * test" without the level tag, contains one of the `patterns` (`--only TEXT ...`; any name without
 * patterns) and whose level is one of `levels` (`--level`; any level without it); `undefined` when
 * that is every test of the kata, which is then graded as a whole. With `core`, only core tests
 * (test-tag.ts). Katas with none are left out.
 */
export function chooseTests(
  manifest: Manifest,
  katas: Kata[],
  patterns: string[] | undefined,
  includeBank: boolean,
  levels?: readonly Level[],
  core = false,
): Map<string, Set<string> | undefined> {
  const chosen = new Map<string, Set<string> | undefined>();
  for (const kata of katas) {
    const entry = manifest.katas[kata.id];
    if (!entry) continue;
    const all = expectedTests(entry, { includeBank }).map((t) => t.name);
    const names = all.filter((name) => {
      const { name: shown, level, core: isCore } = splitTag(name);
      return (!patterns || patterns.some((p) => `${kata.id} > ${shown}`.includes(p))) && (!levels || levels.includes(level)) && (!core || isCore);
    });
    if (names.length > 0) chosen.set(kata.id, names.length === all.length ? undefined : new Set(names));
  }
  if (chosen.size === 0) {
    const named = patterns ? ` has a name containing ${patterns.map((p) => JSON.stringify(p)).join(" or ")}` : "";
    const levelled = levels ? `${named ? " and" : ""} is at level ${levels.join(" or ")}` : "";
    const cored = core ? `${named || levelled ? " and" : ""} is a core test` : "";
    const option = patterns ? "--only" : levels ? "--level" : "--core";
    throw new UsageError(`${option}: no test${includeBank ? "" : " outside the bank"} of the chosen katas${named}${levelled}${cored}`);
  }
  return chosen;
}

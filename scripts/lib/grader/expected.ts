// What a grade expects of one kata: the manifest's tests it scores, each named and levelled before
// any verdict. Every test expected gets a verdict, whatever happens to the run (kata-result.ts).
import type { Kata } from "./katas.ts";
import { isBankFile, type KataManifest, type ManifestTest } from "./manifest.ts";
import { splitTag, taskIdOf, type TestResult } from "./test-result.ts";

/** One kata to grade in a run of several, and, when narrowed, its only tests. */
export interface KataTarget {
  kata: Kata;
  manifest: KataManifest;
  only?: ReadonlySet<string>;
}

/** The manifest's tests this grade scores: the visible ones, the bank's with `includeBank`, only the chosen ones with `only`. */
export function expectedTests(manifest: KataManifest, options: { includeBank: boolean; only?: ReadonlySet<string> }): ManifestTest[] {
  const all = options.includeBank ? [...manifest.tests, ...manifest.bank] : manifest.tests;
  return options.only ? all.filter((t) => options.only!.has(t.name)) : all;
}

export function expectedTest(kata: Kata, entry: ManifestTest): Omit<TestResult, "status"> {
  const tag = splitTag(entry.name);
  return { kata: kata.id, file: entry.file, name: tag.name, level: tag.level, weight: tag.weight, core: tag.core, bank: isBankFile(entry.file), taskId: taskIdOf(tag.name) };
}


// Which of the project's files go into a candidate's pack. The rule is by exclusion: every file is
// in unless a pattern below names it, so a new candidate tool (a script and its lib) is in the pack
// from the day it is committed, and only maintainer material has to be listed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** What a candidate must not get, and why: each a pattern over paths relative to the project root. */
export const LEFT_OUT: ReadonlyArray<[pattern: RegExp, why: string]> = [
  [/^(\.git|node_modules|\.grade)(\/|$)/, "not source"],
  [/^\.hint-state\.json$/, "the packer's own hint progress"],
  [/^solutions(\/|$)/, "the references"],
  [/^spec\/[^/]+\/bank(\/|$)/, "the interviewer's held-out bank"],
  [/^spec\/fixtures(\/|$)/, "known-bad and sabotaged implementations, built on the references"],
  [/^spec\/[^/]+\/(api-parity|bench-cases)\.ts$/, "they import the references"],
  [/^docs\/(interviewer-guide|mutation-report|benchmarks)[^/]*$/, "interviewer and maintainer material (benchmarks are measured with the references)"],
  [/^scripts\/(self-test|manifest|test-browser|compare|bench|mutate|pack-candidate)\.ts$/, "maintainer tools that need the references"],
  [/^scripts\/stages\.ts$/, "a maintainer tool: it writes the kata READMEs' Stages tables from the plan"],
  [/^spec\/(README-SKELETON\.md|[^/]+\/NOTES\.md)$/, "notes for maintainers: how the READMEs are built, what the specs leave free and why"],
  [/^scripts\/(grade-round\.ts|lib\/round\/)/, "the interviewer's tool for a whole round of candidates"],
  [/^scripts\/(test|lib\/(bench|compare|mutation|self-test|pack))(\/|$)/, "maintainer tools and their tests"],
  [/^(\.ci|CONTRIBUTING\.md|CHANGELOG\.md|vitest\.scripts\.config\.ts|stryker\.config\.[a-z]+)(\/|$)/, "maintainer material (the changelog speaks of the bank, compare and the references)"],
  // The pack writes its own README (scripts/lib/pack/README.candidate*.md): the maintainers' one
  // documents the self-test, compare, the references and the bank, none of which the pack has.
  [/^README(\.[\w-]+)?\.md$/, "the maintainers' README (the pack has the candidate's)"],
];

export function leftOut(path: string): string | undefined {
  return LEFT_OUT.find(([pattern]) => pattern.test(path))?.[1];
}

/** The project's files as git sees them (tracked, or new and not ignored): never build output or scratch. */
export function projectFiles(root: string): string[] {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`pack:candidate needs the project's git checkout: ${listed.stderr.trim()}`);
  return listed.stdout
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(root, file)))
    .sort();
}

/** The files that go into the pack. */
export function packedFiles(root: string): string[] {
  return projectFiles(root).filter((file) => !leftOut(file));
}

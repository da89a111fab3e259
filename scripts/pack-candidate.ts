// npm run pack:candidate -- DIR: a clean, runnable copy for a candidate. It leaves out the
// references, the interviewer's bank and guide, and anything that would leak an answer; inside
// it, `npm install && npm run grade` works and grades the candidate's katas/ with the visible specs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { isBankFile, type Manifest } from "./lib/grader/manifest.ts";

const FLAGS: Record<string, FlagSpec> = {
  force: { value: false, description: "write into DIR even when it is not empty" },
};

/** What a candidate must not get, and why: each entry a path prefix relative to the project root. */
export const LEFT_OUT: ReadonlyArray<[pattern: RegExp, why: string]> = [
  [/^(\.git|node_modules|\.grade)(\/|$)/, "not source"],
  [/^\.hint-state\.json$/, "the packer's own hint progress"],
  [/^solutions(\/|$)/, "the references"],
  [/^spec\/[^/]+\/bank(\/|$)/, "the interviewer's held-out bank"],
  [/^spec\/fixtures(\/|$)/, "known-bad and sabotaged implementations, built on the references"],
  [/^spec\/[^/]+\/(api-parity|bench-cases)\.ts$/, "they import the references"],
  [/^docs\/(interviewer-guide|mutation-report)[^/]*$/, "interviewer material"],
  [/^scripts\/(self-test|manifest|test-browser|compare|bench|mutate|pack-candidate)\.ts$/, "maintainer tools that need the references"],
  [/^scripts\/(test|lib\/(bench|compare|mutation))(\/|$)/, "maintainer tools that need the references"],
  [/^(\.ci|CONTRIBUTING\.md|vitest\.scripts\.config\.ts|stryker\.config\.[a-z]+)(\/|$)/, "maintainer material"],
];

export function leftOut(path: string): string | undefined {
  return LEFT_OUT.find(([pattern]) => pattern.test(path))?.[1];
}

/** The project's files as git sees them (tracked, or new and not ignored): never build output or scratch. */
function projectFiles(): string[] {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: PROJECT_ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`pack:candidate needs the project's git checkout: ${listed.stderr.trim()}`);
  return listed.stdout
    .split("\0")
    .filter((file) => file !== "" && !leftOut(file) && existsSync(join(PROJECT_ROOT, file)))
    .sort();
}

/** The maintainer's package.json, with the scripts that need what was left out removed. */
function candidatePackage(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const keep = ["grade", "watch", "hint", "live", "typecheck", "spec"];
  pkg.scripts = Object.fromEntries(Object.entries(pkg.scripts).filter(([name]) => keep.includes(name)));
  // `npm test` is what people type first: in the pack it grades their code.
  pkg.scripts.test = "tsx scripts/grade.ts";
  return JSON.stringify(pkg, null, 2) + "\n";
}

/** Types are checked against the candidate's own code: there is no reference in the pack. */
function candidateTsconfig(): string {
  const config = JSON.parse(readFileSync(join(PROJECT_ROOT, "tsconfig.json"), "utf8")) as {
    compilerOptions: { paths: Record<string, string[]> };
    include: string[];
    exclude: string[];
  };
  config.compilerOptions.paths = { "@impl/*": ["./katas/*/index.ts"] };
  config.include = config.include.filter((p) => p !== "solutions");
  config.exclude = config.exclude.filter((p) => !p.startsWith("spec/fixtures"));
  return JSON.stringify(config, null, 2) + "\n";
}

/** The visible tests only, and hashes only of the files the pack has. */
function candidateManifest(files: Set<string>): string {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
  const keepFiles = (hashes: Record<string, string>) => Object.fromEntries(Object.entries(hashes).filter(([file]) => files.has(file)));
  for (const entry of Object.values(manifest.katas)) {
    entry.bank = [];
    entry.files = keepFiles(entry.files);
    entry.tests = entry.tests.filter((t) => !isBankFile(t.file));
  }
  manifest.support = keepFiles(manifest.support);
  return JSON.stringify(manifest, null, 2) + "\n";
}

export function packCandidate(target: string, force = false): { files: number } {
  if (existsSync(target) && readdirSync(target).length > 0 && !force) {
    throw new UsageError(`${target} is not empty (use --force to write into it anyway)`);
  }
  if (resolve(target).startsWith(PROJECT_ROOT + "/") || resolve(target) === PROJECT_ROOT) {
    throw new UsageError("the pack must go outside this repository");
  }
  const files = projectFiles();
  const fileSet = new Set(files);
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(PROJECT_ROOT, file), join(target, file));
  }
  writeFileSync(join(target, "package.json"), candidatePackage());
  writeFileSync(join(target, "tsconfig.json"), candidateTsconfig());
  writeFileSync(join(target, "spec", "manifest.json"), candidateManifest(fileSet));
  writeFileSync(join(target, ".gitignore"), "node_modules/\n.grade/\n.hint-state.json\n");
  return { files: files.length };
}

function main(argv: string[]): number {
  if (argv.includes("--help")) {
    console.log(usage("npm run pack:candidate -- DIR [--force]", "Writes a candidate's pack: runnable, without references, bank or interviewer material.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  const [target, extra] = args.positionals;
  if (!target) throw new UsageError("where to? for example: npm run pack:candidate -- ../pack");
  if (extra) throw new UsageError(`unexpected argument "${extra}"`);
  const { files } = packCandidate(resolve(process.cwd(), target), args.flags.has("force"));
  console.log(`Wrote ${files} files to ${target}. Hand it over; the candidate runs: npm install && npm run grade`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(PROJECT_ROOT, "scripts", "pack-candidate.ts")) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`pack:candidate: ${error.message}`);
    process.exitCode = 2;
  }
}

// npm run pack:candidate -- DIR: a clean, runnable copy for a candidate. It leaves out the
// references, the interviewer's bank and guide, and anything that would leak an answer; inside
// it, `npm install && npm run grade` works and grades the candidate's katas/ with the visible specs.
// Its README is the candidate's (scripts/lib/pack/README.candidate*.md), its package.json and lock
// install only what the pack uses, and no document in it names a command or a file it lacks.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { isBankFile, type Manifest } from "./lib/grader/manifest.ts";
import { describeMissing, missingReferences, packDocuments, withFolders, type MissingReference } from "./lib/pack/doc-references.ts";
import { packedFiles, projectFiles } from "./lib/pack/files.ts";
import { importedPackages } from "./lib/pack/imports.ts";
import { lockBinaries, prunedLock, type Lock } from "./lib/pack/lock.ts";
import { candidatePackage, type PackageJson } from "./lib/pack/package-json.ts";
import { packPassages } from "./lib/pack/passages.ts";
import { candidateReadme, packFeatures, README_TEMPLATES } from "./lib/pack/readme.ts";

/** The pack's CI workflow: the visible grade, its Markdown summary in the job summary, the reports as artifacts. */
export const GRADE_WORKFLOW = join(PROJECT_ROOT, "scripts", "lib", "pack", "grade.yml");

const FLAGS: Record<string, FlagSpec> = {
  force: { value: false, description: "write into DIR even when it is not empty" },
};

export { LEFT_OUT, leftOut } from "./lib/pack/files.ts";

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(PROJECT_ROOT, file), "utf8")) as T;
}

/** Types are checked against the candidate's own code: there is no reference in the pack. */
function candidateTsconfig(): string {
  const config = readJson<{ compilerOptions: { paths: Record<string, string[]> }; include: string[]; exclude: string[] }>("tsconfig.json");
  config.compilerOptions.paths = { "@impl/*": ["./katas/*/index.ts"] };
  config.include = config.include.filter((p) => p !== "solutions");
  config.exclude = config.exclude.filter((p) => !p.startsWith("spec/fixtures"));
  return JSON.stringify(config, null, 2) + "\n";
}

/** The visible tests only, and hashes only of the files the pack has. */
function candidateManifest(files: ReadonlySet<string>): string {
  const manifest = readJson<Manifest>("spec/manifest.json");
  const keepFiles = (hashes: Record<string, string>) => Object.fromEntries(Object.entries(hashes).filter(([file]) => files.has(file)));
  for (const entry of Object.values(manifest.katas)) {
    entry.bank = [];
    entry.files = keepFiles(entry.files);
    entry.tests = entry.tests.filter((t) => !isBankFile(t.file));
  }
  manifest.support = keepFiles(manifest.support);
  return JSON.stringify(manifest, null, 2) + "\n";
}

/** package.json and package-lock.json with only the scripts and packages the pack uses. */
function candidatePackageFiles(files: readonly string[]): { pkg: PackageJson; lock: Lock } {
  const lock = readJson<Lock>("package-lock.json");
  const tsTypes = readJson<{ compilerOptions: { types?: string[] } }>("tsconfig.json").compilerOptions.types ?? [];
  const pkg = candidatePackage(readJson<PackageJson>("package.json"), new Set(files), {
    imported: importedPackages(PROJECT_ROOT, files),
    binaries: lockBinaries(lock),
    tsTypes,
  });
  return { pkg, lock: prunedLock(lock, pkg.devDependencies) };
}

export interface PackResult {
  files: number;
  /** What the pack's documents name that the pack does not hold: empty for a good pack. */
  missing: MissingReference[];
}

export function packCandidate(target: string, force = false): PackResult {
  if (existsSync(target) && readdirSync(target).length > 0 && !force) {
    throw new UsageError(`${target} is not empty (use --force to write into it anyway)`);
  }
  if (resolve(target).startsWith(PROJECT_ROOT + "/") || resolve(target) === PROJECT_ROOT) {
    throw new UsageError("the pack must go outside this repository");
  }
  const files = packedFiles(PROJECT_ROOT);
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(PROJECT_ROOT, file), join(target, file));
  }
  const { pkg, lock } = candidatePackageFiles(files);
  writeFileSync(join(target, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  writeFileSync(join(target, "package-lock.json"), JSON.stringify(lock, null, 2) + "\n");
  writeFileSync(join(target, "tsconfig.json"), candidateTsconfig());
  writeFileSync(join(target, "spec", "manifest.json"), candidateManifest(new Set(files)));
  writeFileSync(join(target, ".gitignore"), "node_modules/\n.grade/\n.hint-state.json\n");
  // GitHub Actions grades every push of the candidate's repository (and a Classroom assignment).
  mkdirSync(join(target, ".github", "workflows"), { recursive: true });
  cpSync(GRADE_WORKFLOW, join(target, ".github", "workflows", "grade.yml"));

  // The documents: the candidate's README, and every packed document without its maintainer passages.
  const features = packFeatures(target, PROJECT_ROOT);
  for (const [template, packed] of README_TEMPLATES) writeFileSync(join(target, packed), candidateReadme(template, features));
  for (const document of packDocuments(withFolders(files))) {
    const path = join(target, document);
    writeFileSync(path, packPassages(readFileSync(path, "utf8"), (name) => features.has(name), document));
  }
  return { files: files.length + README_TEMPLATES.length, missing: missingReferences(target, withFolders(projectFiles(PROJECT_ROOT))) };
}

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("pack:candidate", () => run(argv));

function run(argv: string[]): number {
  if (argv.includes("--help")) {
    console.log(usage("npm run pack:candidate -- DIR [--force]", "Writes a candidate's pack: runnable, without references, bank or interviewer material, with the candidate's README and only the packages it uses. Exits 1 when a document in the pack names a command or file the pack lacks.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  const [target, extra] = args.positionals;
  if (!target) throw new UsageError("where to? for example: npm run pack:candidate -- ../pack");
  if (extra) throw new UsageError(`unexpected argument "${extra}"`);
  const { files, missing } = packCandidate(resolve(process.cwd(), target), args.flags.has("force"));
  console.log(`Wrote ${files} files to ${target}. Hand it over; the candidate runs: npm install && npm run grade`);
  if (missing.length === 0) return 0;
  // The pack is written, but its documents would mislead a candidate: say where, and fail.
  console.error(`pack:candidate: the pack's documents name what the pack does not have:\n${describeMissing(missing)}`);
  return 1;
}

if (isEntry(import.meta.url)) process.exitCode = await main(process.argv.slice(2));

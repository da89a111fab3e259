// The list of every graded test, per kata, taken from the reference run and committed as
// spec/manifest.json. The grader scores against this list, not against whatever a run reports,
// so a test that never ran (crash, hang, missing export) still appears, as an error, and a test a
// candidate adds to the specs earns nothing.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import type { Kata } from "./katas.ts";
import { runVitest } from "./vitest-child.ts";

export const MANIFEST_PATH = join(PROJECT_ROOT, "spec", "manifest.json");

export interface ManifestTest {
  /** Path of the spec file, relative to the project root, with "/" separators. */
  file: string;
  /** Full name: describe titles and the test title joined with " > ", tag included. */
  name: string;
}

export interface KataManifest {
  /** The visible specs: what a candidate sees and `npm run grade` scores. */
  tests: ManifestTest[];
  /** The held-out bank (spec/NN-name/bank/): scored apart, with `--bank`; not in a candidate's pack. */
  bank: ManifestTest[];
  /** sha256 of every file under spec/NN-name/, to tell when the specs were changed. */
  files: Record<string, string>;
}

export interface Manifest {
  katas: Record<string, KataManifest>;
  /** sha256 of every file under spec/support/: shared helpers every kata's specs run through. */
  support: Record<string, string>;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
}

export function hashFiles(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const path of walk(dir)) {
    hashes[relative(PROJECT_ROOT, path).split("\\").join("/")] = createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return hashes;
}

export function loadManifest(): Manifest | undefined {
  if (!existsSync(MANIFEST_PATH)) return undefined;
  return JSON.parse(readFileSync(MANIFEST_PATH, "utf8")) as Manifest;
}

export const isBankFile = (file: string) => /^spec\/[^/]+\/bank\//.test(file);

/**
 * The manifest's lists from the tests a run collected. Files are collected in parallel, so their
 * order varies from run to run: sort by file (the sort is stable, so each file keeps its own tests
 * in the order they are declared).
 */
export function manifestLists(listed: ManifestTest[]): Pick<KataManifest, "tests" | "bank"> {
  const tests = [...listed].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { tests: tests.filter((t) => !isBankFile(t.file)), bank: tests.filter((t) => isBankFile(t.file)) };
}

/** Lists the tests of the given katas (bank included) by collecting the specs against the reference. */
export async function buildManifest(katas: Kata[]): Promise<Manifest> {
  const work = mkdtempSync(join(tmpdir(), "tuk-manifest-"));
  try {
    const manifest: Manifest = { katas: {}, support: hashFiles(join(PROJECT_ROOT, "spec", "support")) };
    for (const kata of katas) {
      const out = join(work, `${kata.id}.json`);
      const outcome = await runVitest(
        ["list", `spec/${kata.id}/`, `--json=${out}`],
        { KATA_IMPL: "solutions", GRADE_BANK: "1" },
        120_000,
      );
      if (!existsSync(out)) {
        throw new Error(`could not list the tests of ${kata.id} (exit ${outcome.exitCode}):\n${outcome.outputTail.slice(-2000)}`);
      }
      const listed = JSON.parse(readFileSync(out, "utf8")) as Array<{ name: string; file: string }>;
      manifest.katas[kata.id] = {
        ...manifestLists(listed.map((t) => ({ file: relative(PROJECT_ROOT, t.file).split("\\").join("/"), name: t.name }))),
        files: hashFiles(join(PROJECT_ROOT, "spec", kata.id)),
      };
    }
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// The speed half of compare runs the candidate's code; like a grade, it runs it where it can reach
// nothing. Both sides and the benchmark's own code are turned into plain JavaScript here, on the
// trusted side (the kata by the grader's bundler, which applies the kata rule), in one scratch
// folder; the measuring process reads that folder alone, through Node's permission model (no
// file written, no process started, nothing else read), and where Linux allows, in user, PID and
// network namespaces of its own (no network, no other process to signal), as the grader's sandbox
// is (spec/support/sandbox/confinement.ts). Both sides are bundled the same way, so they also load
// the same way: one module format, one kind of path, the same transform.
import { chmodSync, cpSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { detectConfinement, UNSHARE_FLAGS, type Confinement } from "../../../spec/support/sandbox/confinement.ts";
import { bundleKata } from "../grader/bundle.ts";
import { PROJECT_ROOT } from "../impl-root.ts";

export interface ConfinedRun {
  /** The measuring program, speed-child.ts as JavaScript. */
  child: string;
  /** Arguments for it before the per-run ones: the cases and each side's kata, as JavaScript. */
  files: { cases: string; yours: string; reference: string };
  /** The folder it may read, and nothing else. */
  root: string;
}

/** Why a side could not be measured at all: its code does not build, or imports what a kata may not. */
export class StagingError extends Error {}

async function bundleTool(entry: string, outFile: string): Promise<void> {
  await build({ entryPoints: [entry], outfile: outFile, bundle: true, format: "esm", platform: "node", target: "node20", logLevel: "silent" });
}

/** Stages both sides and the benchmark in `scratch`, as plain JavaScript the confined child runs. */
export async function stageConfined(kataId: string, candidateRoot: string, referenceRoot: string, scratch: string): Promise<ConfinedRun> {
  const root = join(scratch, "run");
  const sides = { yours: join(root, "yours", "kata.mjs"), reference: join(root, "reference", "kata.mjs") };
  for (const [side, from] of [["yours", candidateRoot], ["reference", referenceRoot]] as const) {
    const bundle = await bundleKata(kataId, join(from, kataId), sides[side]);
    const whose = side === "yours" ? "your code" : "the reference";
    if (bundle.error) throw new StagingError(`${whose} did not build: ${bundle.error}`);
    if (bundle.refused.length > 0) throw new StagingError(`${whose} imports what a kata may not (${bundle.refused.map((r) => `${r.file} imports '${r.what}'`).join("; ")}): not measured`);
  }
  // The cases read their data beside themselves (spec/data/...): the same layout under the root.
  const cases = join(root, "spec", kataId, "bench-cases.mjs");
  await Promise.all([
    bundleTool(join(PROJECT_ROOT, "spec", kataId, "bench-cases.ts"), cases),
    bundleTool(join(PROJECT_ROOT, "scripts", "lib", "compare", "speed-child.ts"), join(root, "speed-child.mjs")),
    bundleTool(join(PROJECT_ROOT, "scripts", "lib", "compare", "speed-side.ts"), join(root, "speed-side.mjs")),
  ]);
  mkdirSync(join(root, "spec", "data"), { recursive: true });
  cpSync(join(PROJECT_ROOT, "spec", "data", "bfcl"), join(root, "spec", "data", "bfcl"), { recursive: true });
  return { child: join(root, "speed-child.mjs"), files: { cases, ...sides }, root };
}

/** The command that starts `run`'s child confined, with `args` after its own. */
export function confinedCommand(run: ConfinedRun, args: string[], confinement: Confinement = detectConfinement()): { command: string; args: string[]; uid?: number; gid?: number } {
  const node = [
    "--single-threaded",
    confinement.permissionFlag,
    `--allow-fs-read=${run.root}/*`,
    // Each side runs in a worker thread of its own (speed-child.ts).
    "--allow-worker",
    "--disallow-code-generation-from-strings",
    "--no-warnings",
    run.child,
    run.files.cases,
    run.files.yours,
    run.files.reference,
    ...args,
  ];
  if (confinement.level === "namespaces") return { command: confinement.unshare!, args: [...UNSHARE_FLAGS, process.execPath, ...node] };
  if (confinement.level === "other-user") {
    openTree(run.root);
    return { command: process.execPath, args: node, uid: confinement.uid, gid: confinement.gid };
  }
  return { command: process.execPath, args: node };
}

/** Another user (nobody) reads the staged tree: every folder on the way and every file in it. */
function openTree(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) openTree(path);
    else chmodSync(path, 0o644);
  }
}

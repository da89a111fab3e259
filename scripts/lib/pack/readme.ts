// The pack's README (en + zh-CN), written from the templates next to this file. A template's
// `<!-- if NAME -->` passages (see passages.ts) stay only when the pack has NAME, so the README
// documents the tools this pack holds on the day it is made, and nothing it lacks.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packPassages } from "./passages.ts";

const HERE = dirname(fileURLToPath(import.meta.url));

/** The template files and the README each one becomes in the pack. */
export const README_TEMPLATES: ReadonlyArray<[template: string, packed: string]> = [
  ["README.candidate.md", "README.md"],
  ["README.candidate.zh-CN.md", "README.zh-CN.md"],
];

/** Whether `npm run SCRIPT -- --help` in the project lists FLAG: a flag is documented only once it exists. */
function scriptHasFlag(root: string, scripts: Record<string, string>, script: string, flag: string): boolean {
  const file = /^tsx (scripts\/[\w-]+\.ts)$/.exec(scripts[script] ?? "")?.[1];
  if (!file) return false;
  const help = spawnSync(process.execPath, ["--import", "tsx", file, "--help"], { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return new RegExp(`(^|\\s)--${flag}\\b`, "m").test(help.stdout);
}

/**
 * The names a template may test, and whether the pack has each: `interview` (the mock interview),
 * `sprint` (its `--sprint`), `level` and `core` (`--level` and `--core` on grade and watch),
 * `stages` (a Stages section in every kata README), `typecheck` and `spec` (the plain tools).
 */
export function packFeatures(packRoot: string, projectRoot: string): Set<string> {
  const scripts = (JSON.parse(readFileSync(join(packRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const features = new Set<string>();
  for (const name of ["interview", "typecheck", "spec"]) if (scripts[name]) features.add(name);
  if (scriptHasFlag(projectRoot, scripts, "grade", "level") && scriptHasFlag(projectRoot, scripts, "watch", "level")) features.add("level");
  if (scriptHasFlag(projectRoot, scripts, "grade", "core") && scriptHasFlag(projectRoot, scripts, "watch", "core")) features.add("core");
  if (features.has("interview") && scriptHasFlag(projectRoot, scripts, "interview", "sprint")) features.add("sprint");
  const readmes = readdirSync(join(packRoot, "katas")).flatMap((kata) => ["README.md", "README.zh-CN.md"].map((f) => join(packRoot, "katas", kata, f)));
  if (readmes.length > 0 && readmes.every((f) => existsSync(f) && /^##+ .*(Stages|阶段)/m.test(readFileSync(f, "utf8")))) features.add("stages");
  return features;
}

export function candidateReadme(template: string, features: ReadonlySet<string>): string {
  const text = readFileSync(join(HERE, template), "utf8");
  // Dropped passages may leave runs of blank lines behind: one is enough.
  return packPassages(text, (name) => features.has(name), template).replace(/\n{3,}/g, "\n\n");
}

// A watch narrowed by `--level` (scripts/watch.ts): what its warm runner (warm-child.ts) loads and
// leaves out. The parent reads it off the manifest and hands it over in the environment; it lives
// apart from warm-child.ts, whose import starts a vitest.
import type { KataManifest } from "../grader/manifest.ts";

export interface WarmNarrowing {
  /** The spec files that hold a chosen test: the only ones loaded, and re-run on a save. */
  files: string[];
  /** The tests of those files that are not chosen: left out of every run (vitest's `skipTests`). */
  leaveOut: string[];
}

const ENV = "WARM_NARROWING";

/** The narrowing to the `chosen` tests (full names, as in the manifest), as an environment entry. */
export function narrowingEnv(manifest: KataManifest, chosen: ReadonlySet<string>): Record<string, string> {
  const files = [...new Set(manifest.tests.filter((t) => chosen.has(t.name)).map((t) => t.file))];
  const leaveOut = manifest.tests.filter((t) => files.includes(t.file) && !chosen.has(t.name)).map((t) => t.name);
  const narrowing: WarmNarrowing = { files, leaveOut };
  return { [ENV]: JSON.stringify(narrowing) };
}

export function readNarrowing(env: NodeJS.ProcessEnv): WarmNarrowing | undefined {
  return env[ENV] ? (JSON.parse(env[ENV]) as WarmNarrowing) : undefined;
}

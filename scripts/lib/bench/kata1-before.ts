// Kata 1's reference beside the parser it replaced: the same benchmark cases, measured the way
// `npm run compare` measures a candidate (each side in a worker of its own, interleaved rounds,
// two processes; scripts/lib/compare/speed.ts), with the old files as "the reference". The ratio
// is then the reference's time / the old parser's.
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { compareSpeed, type SpeedOptions } from "../compare/speed.ts";
import { exportTree } from "./grader-before-sandbox.ts";
import type { Kata1Results } from "./results.ts";

/** The last commit of the parser before its rewrite for speed. */
export const KATA1_BEFORE = "c9e18a5";
const KATA = "01-regex-dispatch";

export async function kata1BeforeRewrite(options: SpeedOptions): Promise<Kata1Results["before"]> {
  const none = (error: string) => ({ commit: KATA1_BEFORE, cases: [], error });
  const tree = exportTree(KATA1_BEFORE, [`solutions/${KATA}`]);
  if (typeof tree === "string") return none(tree);
  try {
    const speed = await compareSpeed(KATA, join(PROJECT_ROOT, "solutions"), join(tree.dir, "solutions"), join(tree.dir, "..", "scratch"), options);
    if (typeof speed === "string") return none(speed);
    const cases: Kata1Results["before"]["cases"] = [];
    for (const c of speed) {
      if ("error" in c) return none(`${c.name}: ${c.error}`);
      cases.push({ name: c.name, ratio: c.ratio, low: c.low, high: c.high });
    }
    return { commit: KATA1_BEFORE, cases, error: null };
  } finally {
    tree.remove();
  }
}

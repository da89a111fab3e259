// `--core`: grade, watch and compare the core tests alone, the few of each kata (about 4-8) that
// make its scheme work end to end. They are the 20-minute sprint's tests (npm run interview --
// --sprint); a spec marks one with `core: true` beside its level, and its tag reads `[L1 w1 core]`.
import type { FlagSpec } from "../cli-args.ts";

export const CORE_FLAG: FlagSpec = {
  value: false,
  description: "only the core tests run and score: the few per kata that make its scheme work end to end (the 20-minute sprint's)",
};

/** The line every report of a core run carries, as `levelsNote` does for `--level`. */
export const CORE_NOTE = "--core: core tests only; scores cover them alone";

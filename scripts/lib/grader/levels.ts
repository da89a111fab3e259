// `--level 1` (or `1,2`, `L1,L3`): grade, watch and compare work on some levels only, so that a
// candidate can take a kata stage by stage, as the interview does. What the option means and how
// a report says it; the tests it chooses are picked in only.ts.
import type { Level } from "../../../spec/support/test-tag.ts";
import { UsageError, type FlagSpec } from "../cli-args.ts";
import { LEVELS } from "./score.ts";

export const LEVEL_FLAG: FlagSpec = {
  value: true,
  valueName: "LIST",
  description: "only the tests of these levels run and score: 1, 1,2 or L1,L3 (default all)",
};

/** "1,2" or "L1,L3" -> the levels, in level order; `undefined` for every level (the option changes nothing then). */
export function parseLevels(text: string | true | undefined): Level[] | undefined {
  if (text === undefined) return undefined;
  const chosen = new Set<Level>();
  for (const part of String(text).split(",").map((s) => s.trim()).filter(Boolean)) {
    const level = `L${part.replace(/^L/i, "")}` as Level;
    if (!LEVELS.includes(level)) throw new UsageError(`--level: no level "${part}" (known: 1, 2, 3 or L1, L2, L3)`);
    chosen.add(level);
  }
  if (chosen.size === 0) throw new UsageError("--level needs a level: 1, 2, 3 or a list like 1,2");
  return chosen.size === LEVELS.length ? undefined : LEVELS.filter((l) => chosen.has(l));
}

/** The line every report of a level-narrowed run carries: "--level 1: L1 tests only; scores cover them alone". */
export function levelsNote(levels: readonly Level[]): string {
  const names = levels.length === 1 ? levels[0] : `${levels.slice(0, -1).join(", ")} and ${levels.at(-1)}`;
  return `--level ${levelsFlag(levels)}: ${names} tests only; scores cover them alone`;
}

/** The option's value for `levels`: ["L1", "L2"] -> "1,2". */
export function levelsFlag(levels: readonly Level[]): string {
  return levels.map((l) => l.slice(1)).join(",");
}

/** The stage after `levels`, once they all pass: the same levels and the next one up; undefined after the last. */
export function nextStage(levels: readonly Level[]): Level[] | undefined {
  const higher = LEVELS.find((l) => !levels.includes(l));
  return higher ? LEVELS.filter((l) => l === higher || levels.includes(l)) : undefined;
}

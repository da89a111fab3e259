// --json DIR's index.json: the leaderboard as data, one entry per candidate, best first, each
// pointing at the candidate's results.json in the same folder.
import { relative } from "node:path";
import { kataColumns, ranked, type RoundRow } from "./row.ts";

export function leaderboardIndex(rows: readonly RoundRow[], info: { seed: number; bank: boolean; startedAt: Date; durationMs: number; resultsOf: (row: RoundRow) => string | undefined; jsonDir: string }) {
  return {
    version: 1,
    seed: info.seed,
    bank: info.bank,
    started_at: info.startedAt.toISOString(),
    duration_ms: info.durationMs,
    katas: kataColumns(rows),
    candidates: ranked(rows).map((row, i) => {
      const results = info.resultsOf(row);
      return {
        rank: i + 1,
        candidate: row.candidate,
        dir: row.dir,
        state: row.state,
        ...(row.note ? { note: row.note } : {}),
        score: row.overall,
        bank_score: row.bankOverall,
        levels: row.levels,
        bank_levels: row.bankLevels,
        integrity: row.integrity,
        sandbox: row.sandbox,
        wall_ms: row.wallMs,
        results: results ? relative(info.jsonDir, results).split("\\").join("/") : null,
        katas: row.katas.map((k) => ({ kata: k.kata, score: k.score, bank_score: k.bank, levels: k.levels, bank_levels: k.bankLevels, passed: k.passed, total: k.total, integrity: k.integrity })),
      };
    }),
  };
}

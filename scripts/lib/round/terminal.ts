// The leaderboard in the terminal: one line per candidate, best first. Each score cell is the
// visible score, or "visible/bank" when the bank was run.
import type { Style } from "../grader/report-terminal.ts";
import { LEVELS } from "../grader/score.ts";
import { columns } from "../table.ts";
import { kataColumns, ranked, shown, type Figure, type RoundRow } from "./row.ts";

const cell = (visible: Figure, bank: Figure, withBank: boolean) => (withBank ? `${shown(visible)}/${shown(bank)}` : shown(visible));

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function leaderboardTable(rows: readonly RoundRow[], style: Style): string {
  const katas = kataColumns(rows);
  const withBank = rows.some((r) => r.bankOverall !== null);
  const header = ["#", "candidate", "overall", ...(withBank ? ["bank"] : []), ...katas.map((k) => k.slice(0, 2)), ...LEVELS, "integrity", "sandbox", "time", ""];
  const lines = ranked(rows).map((row, i) => {
    const byKata = katas.map((id) => {
      const k = row.katas.find((x) => x.kata === id);
      return k ? cell(k.score, k.bank, withBank) : "-";
    });
    const state = row.state === "cached" ? "unchanged, not re-graded" : row.note ?? "";
    return [String(i + 1), row.candidate, shown(row.overall), ...(withBank ? [shown(row.bankOverall)] : []), ...byKata, ...LEVELS.map((l) => cell(row.levels[l], row.bankLevels[l], withBank)), row.integrity, row.sandbox, seconds(row.wallMs), state];
  });
  const numeric = (c: number) => c === 0 || (c >= 2 && c < header.length - 4) || c === header.length - 2;
  const [head, ...body] = columns([header, ...lines], { alignRight: numeric }).map((line) => line.trimEnd());
  const paint = (row: RoundRow, text: string) =>
    row.state === "over-budget" || row.state === "failed" || row.integrity === "refused" ? style.red(text) : row.state === "cached" ? style.dim(text) : text;
  const legend = `${katas.map((k) => `${k.slice(0, 2)} = ${k}`).join(", ")}${withBank ? "; each score is visible/bank" : ""}`;
  return [style.bold(head), ...ranked(rows).map((row, i) => paint(row, body[i])), style.dim(legend)].join("\n");
}

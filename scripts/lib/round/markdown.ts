// The leaderboard as GitHub-flavoured Markdown (a job summary, an issue, a comment): best first,
// each score cell the visible score, or "visible / bank" when the bank was run.
import { markdownTable } from "../grader/report-markdown.ts";
import { LEVELS } from "../grader/score.ts";
import { seconds } from "./terminal.ts";
import { kataColumns, ranked, shown, type Figure, type RoundRow } from "./row.ts";

const cell = (visible: Figure, bank: Figure, withBank: boolean) => (withBank ? `${shown(visible)} / ${shown(bank)}` : shown(visible));

export function leaderboardMarkdown(rows: readonly RoundRow[], seed: number): string {
  const katas = kataColumns(rows);
  const withBank = rows.some((r) => r.bankOverall !== null);
  const header = ["#", "candidate", "overall", ...(withBank ? ["bank"] : []), ...katas, ...LEVELS, "integrity", "sandbox", "time", "note"];
  const lines = ranked(rows).map((row, i) => [
    String(i + 1),
    row.candidate,
    shown(row.overall),
    ...(withBank ? [shown(row.bankOverall)] : []),
    ...katas.map((id) => {
      const k = row.katas.find((x) => x.kata === id);
      return k ? cell(k.score, k.bank, withBank) : "-";
    }),
    ...LEVELS.map((l) => cell(row.levels[l], row.bankLevels[l], withBank)),
    row.integrity,
    row.sandbox,
    seconds(row.wallMs),
    row.state === "cached" ? "unchanged, not re-graded" : row.note ?? "",
  ]);
  const numeric = (c: number) => c === 0 || (c >= 2 && c < header.length - 4) || c === header.length - 2;
  const title = `### tool-use-katas: ${rows.length} candidate${rows.length === 1 ? "" : "s"}`;
  const sub = `seed ${seed}${withBank ? " · each score is visible / bank" : ""}`;
  return [title, "", sub, "", markdownTable(header, lines, numeric)].join("\n") + "\n";
}

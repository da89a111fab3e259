// The leaderboard as CSV (RFC 4180): one line per candidate, every figure in a column of its own,
// for a spreadsheet.
import { LEVELS } from "../grader/score.ts";
import { kataColumns, ranked, type Figure, type RoundRow } from "./row.ts";

function field(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const figure = (value: Figure) => (value === null ? "" : value.toFixed(1));

export function leaderboardCsv(rows: readonly RoundRow[]): string {
  const katas = kataColumns(rows);
  const header = [
    "rank", "candidate", "dir", "state", "overall", "bank",
    ...LEVELS, ...LEVELS.map((l) => `bank ${l}`),
    ...katas.flatMap((k) => [k, `${k} bank`, ...LEVELS.map((l) => `${k} ${l}`), ...LEVELS.map((l) => `${k} bank ${l}`), `${k} passed`, `${k} total`, `${k} integrity`]),
    "integrity", "sandbox", "seconds", "note",
  ];
  const lines = ranked(rows).map((row, i) => [
    String(i + 1), row.candidate, row.dir, row.state, figure(row.overall), figure(row.bankOverall),
    ...LEVELS.map((l) => figure(row.levels[l])), ...LEVELS.map((l) => figure(row.bankLevels[l])),
    ...katas.flatMap((id) => {
      const k = row.katas.find((x) => x.kata === id);
      if (!k) return new Array<string>(2 + 2 * LEVELS.length + 3).fill("");
      return [figure(k.score), figure(k.bank), ...LEVELS.map((l) => figure(k.levels[l])), ...LEVELS.map((l) => figure(k.bankLevels[l])), String(k.passed), String(k.total), k.integrity];
    }),
    row.integrity, row.sandbox, (row.wallMs / 1000).toFixed(1), row.note ?? "",
  ]);
  return [header, ...lines].map((line) => line.map(field).join(",")).join("\r\n") + "\r\n";
}

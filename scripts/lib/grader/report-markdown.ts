// The summary as GitHub-flavoured Markdown: for $GITHUB_STEP_SUMMARY, a pull-request comment or an
// issue. The same figures as the terminal table (score, levels, passing, bank, integrity), no
// failure list: the full report is the HTML or results.json beside it.
import { integrityStatus, sandboxLine, sandboxOf, untrustedRuns, untrustedSentence, worstStatus } from "./integrity-report.ts";
import { levelsNote } from "./levels.ts";
import type { RunInfo } from "./report-json.ts";
import type { KataResult } from "./kata-result.ts";
import { LEVELS, percent, type Tally } from "./score.ts";
import type { Scores } from "./score.ts";
import { markdownTable as gfmTable } from "../table.ts";

/** A table cell: a pipe or a line break would end the cell or the row, markup would render. */
export function markdownCell(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/[<>]/g, (c) => (c === "<" ? "&lt;" : "&gt;")).replace(/\r?\n/g, " ");
}

/** A GFM table; `numeric` columns are right-aligned. Cells are escaped here. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, numeric: (column: number) => boolean): string {
  return gfmTable(header, rows, { alignRight: numeric, cell: markdownCell });
}

const figure = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(1));
const tallyFigure = (t: Tally) => figure(percent(t));

export function markdownReport(runs: KataResult[], scores: Scores, info: RunInfo): string {
  const withBank = scores.bankOverall !== undefined;
  const header = ["kata", "score", ...LEVELS, "passing", ...(withBank ? ["bank", "bank passing"] : []), "integrity"];
  const rows = scores.katas.map((k, i) => [
    k.kata,
    figure(k.score),
    ...LEVELS.map((l) => tallyFigure(k.levels[l])),
    `${k.tally.passed}/${k.tally.total}`,
    ...(withBank ? (k.bank ? [figure(k.bank.score), `${k.bank.tally.passed}/${k.bank.tally.total}`] : ["-", ""]) : []),
    integrityStatus(runs[i]?.integrity),
  ]);
  const overall = ["**overall**", `**${figure(scores.overall)}**`, ...LEVELS.map((l) => figure(scores.levels[l])), "", ...(withBank ? [`**${figure(scores.bankOverall!)}**`, ""] : []), worstStatus(runs)];
  const numeric = (column: number) => column > 0 && column < header.length - 1;
  const lines = [
    `### tool-use-katas: ${figure(scores.overall)} / 100${withBank ? ` (bank ${figure(scores.bankOverall!)})` : ""}`,
    "",
    `impl \`${info.impl.replace(/`/g, "'")}\` · seed ${info.seed} · graded in ${(info.durationMs / 1000).toFixed(1)} s`,
    "",
    markdownTable(header, [...rows, overall], numeric),
  ];
  const sandbox = sandboxOf(runs);
  if (sandbox) lines.push("", sandboxLine(sandbox));
  const notes = [
    ...untrustedRuns(runs).map((run) => `**${untrustedSentence(run)}**`),
    ...(info.levels ? [levelsNote(info.levels)] : []),
    ...(info.only ? [`--only ${info.only.map((p) => JSON.stringify(p)).join(", ")}: the chosen tests only; scores cover them alone`] : []),
  ];
  if (notes.length > 0) lines.push("", ...notes.map((note) => `> ${note.replace(/[<>]/g, (c) => (c === "<" ? "&lt;" : "&gt;"))}`));
  return lines.join("\n") + "\n";
}

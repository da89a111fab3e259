// One self-contained HTML page: a chart of the score per kata and level (inline SVG, no script,
// no network), then per kata its figures and its failing tests. Figures carry data-* attributes
// so that a browser test can read what the page shows.
import { integrityStatus, sandboxLine, sandboxOf, type IntegrityStatus } from "./integrity-report.ts";
import { levelsNote } from "./levels.ts";
import { inTeachingOrder } from "./next-test.ts";
import { escapeXml } from "./report-junit.ts";
import type { RunInfo } from "./report-json.ts";
import type { KataResult } from "./kata-result.ts";
import { LEVELS, percent, type Scores } from "./score.ts";

const BAR_WIDTH = 240;
const STUB_MESSAGE = "not implemented";

/** Only a status that zeroed the kata earns a badge; notes are listed, not flagged. */
const badged = (status: IntegrityStatus) => status === "refused";
const badge = (status: IntegrityStatus) => (badged(status) ? ` <span class="badge" data-integrity="${status}">${status}</span>` : "");

/** What the grader refused, or points a reader at, one list item each. */
function integritySection(run: KataResult): string {
  const status = integrityStatus(run.integrity);
  if (status === "ok") return "";
  const { refused, notes } = run.integrity!;
  const items = [
    ...refused.map((line) => `<li class="refused"><b>refused</b>: ${escapeXml(line)}</li>`),
    ...notes.map((line) => `<li class="note">note: ${escapeXml(line)}</li>`),
  ].join("");
  const lead = badged(status)
    ? `<p>Scored 0: the grader refused an import (a kata may import only its own files).</p>`
    : `<p>Notes for a reader of the source; they change no score.</p>`;
  return `<div class="integrity" data-integrity="${status}"><h3>Integrity</h3>${lead}<ul>${items}</ul></div>`;
}

const shown = (value: number) => (Number.isNaN(value) ? "-" : value.toFixed(1));
const colour = (value: number) => (Number.isNaN(value) ? "#bbb" : value >= 100 ? "#2e7d32" : value > 0 ? "#f9a825" : "#c62828");

function bar(label: string, value: number, attrs: string): string {
  const width = Number.isNaN(value) ? 0 : Math.round((value / 100) * BAR_WIDTH);
  return `<div class="row" ${attrs}><span class="label">${escapeXml(label)}</span>` +
    `<svg width="${BAR_WIDTH}" height="16" role="img" aria-label="${escapeXml(label)} ${shown(value)}"><rect width="${BAR_WIDTH}" height="16" fill="#eee"/><rect width="${width}" height="16" fill="${colour(value)}"/></svg>` +
    `<span class="value">${shown(value)}</span></div>`;
}

/** Grouped columns: for each kata, its score and its L1, L2, L3 scores, on a 0-100 axis. */
function overviewChart(runs: KataResult[], scores: Scores): string {
  const columnWidth = 26;
  const gap = 6;
  const groupWidth = 4 * (columnWidth + gap) + 40;
  const height = 180;
  const top = 20;
  // A row under the kata labels for the badges, only when a kata has one.
  const badgeRow = runs.some((run) => badged(integrityStatus(run.integrity))) ? 18 : 0;
  const left = 40;
  const width = left + runs.length * groupWidth;
  const y = (value: number) => top + height - (height * value) / 100;
  const grid = [0, 25, 50, 75, 100].map((v) => `<line x1="${left}" x2="${width}" y1="${y(v)}" y2="${y(v)}" stroke="#e0e0e0"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" class="axis">${v}</text>`).join("");
  const groups = scores.katas.map((k, i) => {
    const x0 = left + 20 + i * groupWidth;
    const values: Array<[string, number]> = [["score", k.score], ...LEVELS.map((l): [string, number] => [l, percent(k.levels[l])])];
    const columns = values.map(([label, value], j) => {
      const x = x0 + j * (columnWidth + gap);
      const v = Number.isNaN(value) ? 0 : value;
      return `<rect x="${x}" y="${y(v)}" width="${columnWidth}" height="${y(0) - y(v)}" fill="${colour(value)}" opacity="${j === 0 ? 1 : 0.75}"><title>${escapeXml(`${k.kata} ${label}: ${shown(value)}`)}</title></rect>` +
        `<text x="${x + columnWidth / 2}" y="${y(v) - 4}" text-anchor="middle" class="figure">${Number.isNaN(value) ? "-" : Math.round(value)}</text>` +
        `<text x="${x + columnWidth / 2}" y="${y(0) + 14}" text-anchor="middle" class="axis">${label === "score" ? "all" : label}</text>`;
    }).join("");
    const middle = x0 + (4 * (columnWidth + gap)) / 2 - gap / 2;
    const status = integrityStatus(runs[i].integrity);
    const flag = badged(status) ? `<text x="${middle}" y="${y(0) + 50}" text-anchor="middle" class="badge-label" data-kata="${runs[i].kata.id}" data-integrity="${status}">${status.toUpperCase()}</text>` : "";
    return `${columns}<text x="${middle}" y="${y(0) + 32}" text-anchor="middle" class="kata-label">${escapeXml(runs[i].kata.id)}</text>${flag}`;
  }).join("");
  return `<svg class="overview" width="${width}" height="${top + height + 44 + badgeRow}" role="img" aria-label="score per kata and level">${grid}${groups}</svg>`;
}

/** A run narrowed by --level or --only says so above its figures: they cover the chosen tests alone. */
function narrowedNote(info: RunInfo): string {
  const lines = [
    ...(info.levels ? [`<p class="narrowed" data-levels="${info.levels.join(",")}">${escapeXml(levelsNote(info.levels))}</p>`] : []),
    ...(info.only ? [`<p class="narrowed" data-only="${escapeXml(info.only.join("\n"))}">${escapeXml(`--only ${info.only.map((p) => JSON.stringify(p)).join(", ")}: the chosen tests only; scores cover them alone`)}</p>`] : []),
  ];
  return lines.join("\n");
}

export function htmlReport(runs: KataResult[], scores: Scores, info: RunInfo): string {
  const cards = runs.map((run, i) => {
    const k = scores.katas[i];
    const levels = LEVELS.map((l) => bar(l, percent(k.levels[l]), `data-kata="${run.kata.id}" data-level="${l}" data-score="${percent(k.levels[l])}"`)).join("");
    // In the order to fix them, as the terminal lists them (next-test.ts).
    const failing = inTeachingOrder(run.tests.filter((t) => t.status !== "pass"));
    const stubbed = failing.filter((t) => t.summary === STUB_MESSAGE);
    const listed = failing.filter((t) => t.summary !== STUB_MESSAGE);
    const rows = listed.map((t) => `<tr><td>${escapeXml(t.status)}</td><td>${escapeXml(t.level)}</td><td>${t.bank ? "bank · " : ""}${escapeXml(t.name)}</td><td><pre>${escapeXml(t.summary ?? "")}${t.input ? escapeXml(`\ninput: ${t.input}`) : ""}${t.property?.counterexample ? escapeXml(`\ncounterexample: ${t.property.counterexample.slice(0, 500)}\nseed ${t.property.seed}, path "${t.property.path ?? ""}"`) : ""}</pre></td></tr>`).join("");
    const problems = run.problems.map((p) => `<li>${escapeXml(p)}</li>`).join("");
    const table = rows
      ? `<details${listed.length <= 10 ? " open" : ""}><summary>${failing.length} test${failing.length === 1 ? "" : "s"} not passing${stubbed.length > 0 ? `: ${listed.length} listed here, ${stubbed.length} still the stub (below)` : ""}</summary><table><thead><tr><th>status</th><th>level</th><th>test</th><th>failure</th></tr></thead><tbody>${rows}</tbody></table></details>`
      : "";
    const stub = stubbed.length > 0 ? `<p class="stub">${stubbed.length} test${stubbed.length === 1 ? "" : "s"} fail with "${STUB_MESSAGE}": katas/${escapeXml(run.kata.id)}/ is still (partly) the stub.</p>` : "";
    const status = integrityStatus(run.integrity);
    return `<section class="kata" data-kata="${run.kata.id}" data-score="${k.score}" data-passed="${k.tally.passed}" data-total="${k.tally.total}" data-integrity="${status}">
<h2>${escapeXml(run.kata.id)} <span class="score">${shown(k.score)}</span>${badge(status)} <small>${k.tally.passed} of ${k.tally.total} passing</small></h2>
${bar("score", k.score, `data-kata="${run.kata.id}" data-level="all" data-score="${k.score}"`)}${levels}
${k.bank ? bar("bank", k.bank.score, `data-kata="${run.kata.id}" data-level="bank" data-score="${k.bank.score}"`) : ""}
${problems ? `<ul class="problems">${problems}</ul>` : ""}
${integritySection(run)}
${table}${stub}${!table && !stub ? "<p>All tests pass.</p>" : ""}
</section>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tool-use-katas: ${scores.overall.toFixed(1)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:72em;color:#222}
h1 small,h2 small{color:#666;font-weight:normal;font-size:.7em}
.overview .axis{font-size:11px;fill:#666}.overview .figure{font-size:11px;fill:#222}.overview .kata-label{font-size:13px;fill:#222}
.row{display:flex;align-items:center;gap:.6em;margin:.2em 0}.label{width:3.5em}.value{width:3.5em;text-align:right;font-variant-numeric:tabular-nums}
.kata{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:1em 0}
table{border-collapse:collapse;width:100%;margin-top:.6em}td,th{border-top:1px solid #eee;padding:.3em;text-align:left;vertical-align:top}
pre{margin:0;white-space:pre-wrap;word-break:break-word}.problems{color:#c62828}.stub{color:#666}
.badge{background:#c62828;color:#fff;border-radius:3px;padding:0 .4em;font-size:.6em;text-transform:uppercase;vertical-align:middle}
.overview .badge-label{font-size:12px;font-weight:bold;fill:#c62828}
.integrity{border-left:3px solid #c62828;padding-left:.8em}.integrity[data-integrity="notes"]{border-color:#bbb}
.sandbox{color:#555;font-size:.9em}
.narrowed{color:#8a6d00;background:#fff8e1;padding:.3em .6em;border-radius:4px}
.integrity ul{margin:.3em 0;padding-left:1.2em;word-break:break-word}.integrity .refused{color:#c62828}.integrity .note{color:#666}
</style></head><body>
<h1 data-overall="${scores.overall}">Overall ${scores.overall.toFixed(1)}${scores.bankOverall === undefined ? "" : ` <small>bank ${scores.bankOverall.toFixed(1)}</small>`} <small>impl ${escapeXml(info.impl)} · seed ${info.seed} · ${escapeXml(info.startedAt.toISOString())}</small></h1>
${narrowedNote(info)}
${sandboxOf(runs) ? `<p class="sandbox" data-sandbox="${escapeXml(sandboxOf(runs)!.level)}">${escapeXml(sandboxLine(sandboxOf(runs)!))}</p>` : ""}
${overviewChart(runs, scores)}
${cards}
</body></html>
`;
}

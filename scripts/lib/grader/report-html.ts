// One self-contained HTML page: the score per kata and level as a bar chart (inline SVG, no
// script, no network), then the failing tests with their messages. Figures carry data-*
// attributes so a browser test can read what the page shows.
import { escapeXml } from "./report-junit.ts";
import type { KataRun } from "./run-kata.ts";
import { LEVELS, percent, type Scores, type Tally } from "./score.ts";
import type { RunInfo } from "./report-json.ts";

const BAR_WIDTH = 240;

function bar(label: string, value: number, attrs: string): string {
  const shown = Number.isNaN(value) ? "-" : value.toFixed(1);
  const width = Number.isNaN(value) ? 0 : Math.round((value / 100) * BAR_WIDTH);
  const colour = Number.isNaN(value) ? "#bbb" : value >= 100 ? "#2e7d32" : value > 0 ? "#f9a825" : "#c62828";
  return `<div class="row" ${attrs}><span class="label">${escapeXml(label)}</span>` +
    `<svg width="${BAR_WIDTH}" height="16" role="img" aria-label="${escapeXml(label)} ${shown}"><rect width="${BAR_WIDTH}" height="16" fill="#eee"/><rect width="${width}" height="16" fill="${colour}"/></svg>` +
    `<span class="value">${shown}</span></div>`;
}

const levelValue = (t: Tally) => percent(t);

export function htmlReport(runs: KataRun[], scores: Scores, info: RunInfo): string {
  const cards = runs.map((run, i) => {
    const k = scores.katas[i];
    const levels = LEVELS.map((l) => bar(l, levelValue(k.levels[l]), `data-kata="${run.kata.id}" data-level="${l}" data-score="${levelValue(k.levels[l])}"`)).join("");
    const failing = run.tests.filter((t) => t.status !== "pass");
    const rows = failing.map((t) => `<tr><td>${escapeXml(t.status)}</td><td>${escapeXml(t.level)}</td><td>${escapeXml(t.name)}</td><td><pre>${escapeXml(t.summary ?? "")}${t.property?.counterexample ? escapeXml(`\ncounterexample: ${t.property.counterexample.slice(0, 500)}\nseed ${t.property.seed}, path "${t.property.path ?? ""}"`) : ""}</pre></td></tr>`).join("");
    const problems = run.problems.map((p) => `<li>${escapeXml(p)}</li>`).join("");
    return `<section class="kata" data-kata="${run.kata.id}" data-score="${k.score}" data-passed="${k.tally.passed}" data-total="${k.tally.total}">
<h2>${escapeXml(run.kata.id)} <span class="score">${Number.isNaN(k.score) ? "-" : k.score.toFixed(1)}</span> <small>${k.tally.passed} of ${k.tally.total} passing</small></h2>
${bar("score", k.score, `data-kata="${run.kata.id}" data-level="all" data-score="${k.score}"`)}${levels}
${problems ? `<ul class="problems">${problems}</ul>` : ""}
${rows ? `<table><thead><tr><th>status</th><th>level</th><th>test</th><th>failure</th></tr></thead><tbody>${rows}</tbody></table>` : "<p>All tests pass.</p>"}
</section>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tool-use-katas: ${scores.overall.toFixed(1)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em;color:#222}
h1 small,h2 small{color:#666;font-weight:normal;font-size:.7em}
.row{display:flex;align-items:center;gap:.6em;margin:.2em 0}.label{width:3.5em}.value{width:3.5em;text-align:right;font-variant-numeric:tabular-nums}
.kata{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:1em 0}
table{border-collapse:collapse;width:100%;margin-top:.6em}td,th{border-top:1px solid #eee;padding:.3em;text-align:left;vertical-align:top}
pre{margin:0;white-space:pre-wrap;word-break:break-word}.problems{color:#c62828}
</style></head><body>
<h1 data-overall="${scores.overall}">Overall ${scores.overall.toFixed(1)} <small>impl ${escapeXml(info.impl)} · seed ${info.seed} · ${escapeXml(info.startedAt.toISOString())}</small></h1>
${cards}
</body></html>
`;
}

// The leaderboard as one self-contained page: a table that sorts on a click on any column (a
// few lines of inline script, no request leaves the page), a chart of every candidate per kata and
// level (inline SVG), and a link to each candidate's own HTML report (grade's htmlReport).
import { escapeXml } from "../grader/report-junit.ts";
import { LEVELS } from "../grader/score.ts";
import { seconds } from "./terminal.ts";
import { kataColumns, ranked, shown, type Figure, type RoundRow } from "./row.ts";

/** A sort key: a missing figure sorts below every score. */
const key = (value: Figure) => (value === null ? "-1" : String(value));

function scoreCell(visible: Figure, bank: Figure, withBank: boolean, attrs: string): string {
  const text = withBank ? `${shown(visible)}<small> / ${shown(bank)}</small>` : shown(visible);
  return `<td class="num" data-value="${key(visible)}" ${attrs}>${text}</td>`;
}

const CELL = 54;
const ROW = 20;
const LABEL = 150;

/** Rows: candidates, best first. Columns: each kata's L1, L2, L3. A bar per cell; a tick where the bank's figure is. */
function chart(rows: readonly RoundRow[], katas: readonly string[]): string {
  const columns = katas.flatMap((kata) => LEVELS.map((level) => ({ kata, level })));
  const width = LABEL + columns.length * CELL + 10;
  const height = 36 + rows.length * ROW;
  const heads = katas.map((kata, k) => `<text class="kata-label" x="${LABEL + k * 3 * CELL + (3 * CELL) / 2}" y="12" text-anchor="middle">${escapeXml(kata)}</text>`).join("")
    + columns.map((c, i) => `<text class="axis" x="${LABEL + i * CELL + CELL / 2}" y="28" text-anchor="middle">${c.level}</text>`).join("");
  const bars = rows.map((row, r) => {
    const y = 34 + r * ROW;
    const label = `<text class="candidate-label" x="${LABEL - 6}" y="${y + 12}" text-anchor="end">${escapeXml(row.candidate)}</text>`;
    const cells = columns.map((c, i) => {
      const k = row.katas.find((x) => x.kata === c.kata);
      const value = k?.levels[c.level] ?? null;
      const bank = k?.bankLevels[c.level] ?? null;
      const x = LABEL + i * CELL + 2;
      const w = value === null ? 0 : Math.round(((CELL - 6) * value) / 100);
      const colour = value === null ? "#ccc" : value >= 100 ? "#2e7d32" : value > 0 ? "#f9a825" : "#c62828";
      const tick = bank === null ? "" : `<line class="bank" x1="${x + ((CELL - 6) * bank) / 100}" x2="${x + ((CELL - 6) * bank) / 100}" y1="${y + 1}" y2="${y + 15}"/>`;
      return `<rect class="track" x="${x}" y="${y + 3}" width="${CELL - 6}" height="10"/><rect class="bar" data-candidate="${escapeXml(row.candidate)}" data-kata="${c.kata}" data-level="${c.level}" data-score="${value ?? ""}" x="${x}" y="${y + 3}" width="${w}" height="10" fill="${colour}"><title>${escapeXml(`${row.candidate} · ${c.kata} ${c.level}: ${shown(value)}${bank === null ? "" : ` (bank ${shown(bank)})`}`)}</title></rect>${tick}`;
    }).join("");
    return label + cells;
  }).join("");
  return `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="score per candidate, kata and level">${heads}${bars}</svg>`;
}

/** Sorts the table by the clicked column: numbers by data-value, text by its words; a second click reverses. */
const SORT_SCRIPT = `document.querySelectorAll("table.leaderboard th").forEach(function (th, column) {
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0];
    var descending = th.dataset.sorted !== "desc";
    th.closest("tr").querySelectorAll("th").forEach(function (h) { delete h.dataset.sorted; });
    th.dataset.sorted = descending ? "desc" : "asc";
    var value = function (row) { var c = row.cells[column]; return c.dataset.value !== undefined ? Number(c.dataset.value) : c.textContent.trim().toLowerCase(); };
    Array.from(body.rows).sort(function (a, b) {
      var x = value(a), y = value(b);
      var order = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -order : order;
    }).forEach(function (row) { body.appendChild(row); });
  });
});`;

/** `reportHref`: where the page links a candidate's own report, relative to the page (absent: no report). */
export function leaderboardHtml(rows: readonly RoundRow[], info: { seed: number; startedAt: Date; reportHref: (row: RoundRow) => string | undefined; reportsFolder?: string }): string {
  const katas = kataColumns(rows);
  const withBank = rows.some((r) => r.bankOverall !== null);
  const order = ranked(rows);
  const header = ["#", "candidate", "overall", ...(withBank ? ["bank"] : []), ...katas, ...LEVELS, "integrity", "sandbox", "time", "report"];
  const body = order.map((row, i) => {
    const href = info.reportHref(row);
    const cells = [
      `<td class="num" data-value="${i + 1}">${i + 1}</td>`,
      `<td class="candidate" title="${escapeXml(row.dir)}">${escapeXml(row.candidate)}${row.note ? `<div class="note">${escapeXml(row.note)}</div>` : ""}${row.state === "cached" ? `<div class="note cached">unchanged, not re-graded</div>` : ""}</td>`,
      `<td class="num overall" data-value="${row.overall}">${shown(row.overall)}</td>`,
      ...(withBank ? [`<td class="num" data-value="${key(row.bankOverall)}">${shown(row.bankOverall)}</td>`] : []),
      ...katas.map((id) => {
        const k = row.katas.find((x) => x.kata === id);
        return scoreCell(k?.score ?? null, k?.bank ?? null, withBank, `data-kata="${id}"`);
      }),
      ...LEVELS.map((l) => scoreCell(row.levels[l], row.bankLevels[l], withBank, `data-level="${l}"`)),
      `<td class="integrity" data-integrity="${escapeXml(row.integrity)}">${escapeXml(row.integrity)}</td>`,
      `<td class="sandbox" data-sandbox="${escapeXml(row.sandbox)}">${escapeXml(row.sandbox)}</td>`,
      `<td class="num" data-value="${row.wallMs}">${seconds(row.wallMs)}</td>`,
      `<td>${href ? `<a class="report" href="${escapeXml(href)}">report</a>` : "-"}</td>`,
    ];
    return `<tr data-candidate="${escapeXml(row.candidate)}" data-state="${row.state}" data-overall="${row.overall}" data-integrity="${escapeXml(row.integrity)}">${cells.join("")}</tr>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tool-use-katas: round of ${rows.length}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1 small{color:#666;font-weight:normal;font-size:.6em}
table{border-collapse:collapse;margin:1em 0}td,th{border-top:1px solid #ddd;padding:.3em .6em;text-align:left;vertical-align:top}
.num{white-space:nowrap}.legend span{display:inline-block;width:1em;height:.8em;margin:0 .3em 0 1em;vertical-align:middle}
th{cursor:pointer;user-select:none;background:#f5f5f5}th[data-sorted=desc]::after{content:" ▼"}th[data-sorted=asc]::after{content:" ▲"}
.num{text-align:right;font-variant-numeric:tabular-nums}.num small{color:#666}
.overall{font-weight:bold}.note{color:#c62828;font-size:.85em}.note.cached{color:#666}
.integrity[data-integrity=refused]{color:#fff;background:#c62828;font-weight:bold}
.integrity[data-integrity=notes]{color:#8a6d00}
.chart .axis{font-size:11px;fill:#666}.chart .kata-label{font-size:12px;fill:#222}.chart .candidate-label{font-size:12px;fill:#222}
.chart .track{fill:#eee}.chart .bank{stroke:#222;stroke-width:2}
</style></head><body>
<h1>Round of ${rows.length} candidate${rows.length === 1 ? "" : "s"} <small>seed ${info.seed} · ${escapeXml(info.startedAt.toISOString())}${withBank ? " · each score is visible / bank" : ""}</small></h1>
<p>Click a column's heading to sort by it. Each candidate's own report has the failing tests and the integrity notes${info.reportsFolder ? `: they are in the folder <code class="reports-folder">${escapeXml(info.reportsFolder)}/</code> beside this page, which its links need (send both together)` : ""}.</p>
<table class="leaderboard"><thead><tr>${header.map((h) => `<th>${escapeXml(h)}</th>`).join("")}</tr></thead>
<tbody>
${body}
</tbody></table>
<h2>Per kata and level</h2>
<p>A bar per candidate, kata and level (visible specs)${withBank ? "; the black tick is the bank's figure" : ""}.</p>
${chart(order, katas)}
<p class="legend">A bar's length is the score (0 to 100):<span style="background:#2e7d32"></span>100<span style="background:#f9a825"></span>above 0<span style="background:#c62828"></span>0<span style="background:#ccc"></span>no test of that level${withBank ? `<span style="background:#222;width:2px"></span>the bank's figure` : ""}</p>
<script>
${SORT_SCRIPT}
</script>
</body></html>
`;
}

// What a mock interview leaves behind: a terminal summary and a self-contained HTML page (inline
// SVG, no script, no network) with the score per level over the session, when each stage was
// reached, the hints used, what still fails, and the follow-up questions an interviewer would ask.
// In English or Chinese, as the session was run. A series is a level in a kata interview, a kata
// (on its core tests) in the sprint: the report reads the same either way.
import { escapeXml } from "../grader/report-junit.ts";
import type { Lang } from "./questions.ts";
import { stagesReached, type SessionMeta, type SessionPoint } from "./session.ts";

/** By when the plan wants each stage (a level, or in the sprint a kata) done, in minutes from the start. */
export interface StageDeadline {
  series: string;
  byMinute: number;
}

export interface SessionSummary {
  meta: SessionMeta;
  points: SessionPoint[];
  plan: StageDeadline[];
  /** Names of the tests still failing at the final grade. */
  failing: string[];
  questions: string[];
  /** Problems of the final grade (a hang, a refused import, ...). */
  problems: string[];
  /** How the session ended: its time ran out, or it was interrupted (Ctrl-C) this long after the start. */
  ended?: { by: "time" } | { by: "interrupt"; atMs: number };
}

const TEXT = {
  en: {
    title: (kata: string) => `Mock interview: ${kata}`,
    chart: (sprint: boolean) => (sprint ? "Core score per kata over the session" : "Score per level over the session"),
    minutes: "minutes",
    stages: "Stages",
    planned: "planned by",
    reached: "reached after",
    interrupted: (at: string, minutes: number) => `Interrupted after ${at} of ${minutes} minutes`,
    notReached: "not reached",
    hints: (n: number) => `Hints shown: ${n}`,
    failing: "Still failing at the end",
    noneFailing: "Nothing: every graded test passes.",
    questions: "Questions an interviewer would ask next",
    final: "Final grade",
    problems: "Problems",
    andMore: (n: number) => `... and ${n} more`,
  },
  "zh-CN": {
    title: (kata: string) => `模拟面试：${kata}`,
    chart: (sprint: boolean) => (sprint ? "本次练习中各 kata 核心测试的得分变化" : "本次练习中各等级的得分变化"),
    minutes: "分钟",
    stages: "阶段",
    planned: "计划完成于",
    reached: "实际达成于开始后",
    interrupted: (at: string, minutes: number) => `在 ${minutes} 分钟中的第 ${at}时被中断`,
    notReached: "未达成",
    hints: (n: number) => `看过的提示：${n} 条`,
    failing: "结束时仍未通过的测试",
    noneFailing: "没有：所有计分测试都通过了。",
    questions: "面试官接下来会问的问题",
    final: "最终评分",
    problems: "问题",
    andMore: (n: number) => `……还有 ${n} 项`,
  },
} satisfies Record<Lang, unknown>;

/** The first series' colour and line, the second's, the third's (the levels L1-L3, or the sprint's katas 1-3). */
const COLOURS = ["#1565c0", "#ef6c00", "#6a1b9a"];
const SHOWN_FAILURES = 15;
const LINE_STYLE: Array<{ width: number; dash?: string }> = [{ width: 5 }, { width: 3, dash: "8 4" }, { width: 1.5, dash: "2 3" }];
const colourOf = (meta: SessionMeta, key: string) => COLOURS[meta.series.indexOf(key) % COLOURS.length];
const lineOf = (meta: SessionMeta, key: string) => LINE_STYLE[meta.series.indexOf(key) % LINE_STYLE.length];

/** A time into the session, unmistakably minutes and seconds: "15 min 0 s", "15 分 0 秒". */
const clock = (ms: number, lang: Lang) => {
  const s = Math.round(ms / 1000);
  return lang === "zh-CN" ? `${Math.floor(s / 60)} 分 ${s % 60} 秒` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/** The follow-up questions write code as Markdown does, `like this`: in HTML, as code. */
const withCode = (text: string) => escapeXml(text).replace(/`([^`]+)`/g, "<code>$1</code>");

const finalPoint = (points: SessionPoint[]) => points.find((p) => p.final) ?? points.at(-1);

export function terminalSummary(summary: SessionSummary): string {
  const t = TEXT[summary.meta.lang];
  const { meta, points } = summary;
  const last = finalPoint(points);
  const reached = stagesReached(points, meta.series);
  const lines = [t.title(meta.kata)];
  if (last) lines.push(`  ${t.final}: ${meta.series.map((k) => `${k} ${last.scores[k] ?? "-"}`).join("  ")}  (${last.passing}/${last.total})`);
  if (summary.ended?.by === "interrupt") lines.push(`  ${t.interrupted(clock(summary.ended.atMs, meta.lang), meta.minutes)}`);
  lines.push(`  ${t.stages}:`);
  for (const stage of summary.plan.filter((s) => meta.series.includes(s.series))) {
    const at = reached[stage.series];
    lines.push(`    ${stage.series}  ${t.planned} ${stage.byMinute} ${t.minutes} · ${at === undefined ? t.notReached : `${t.reached} ${clock(at, meta.lang)}`}`);
  }
  lines.push(`  ${t.hints(last?.hints ?? 0)}`);
  for (const problem of summary.problems) lines.push(`  ! ${problem}`);
  lines.push(`  ${t.failing}:`);
  if (summary.failing.length === 0) lines.push(`    ${t.noneFailing}`);
  for (const name of summary.failing.slice(0, SHOWN_FAILURES)) lines.push(`    - ${name}`);
  if (summary.failing.length > SHOWN_FAILURES) lines.push(`    ${t.andMore(summary.failing.length - SHOWN_FAILURES)}`);
  if (summary.questions.length > 0) {
    lines.push(`  ${t.questions}:`);
    summary.questions.forEach((q, i) => lines.push(`    ${i + 1}. ${q}`));
  }
  return lines.join("\n");
}

/** An SVG line chart: x the session's minutes, y 0-100, one line per level, the plan's deadlines dashed. */
function chart(summary: SessionSummary): string {
  const [width, height, pad] = [640, 260, 36];
  const t = TEXT[summary.meta.lang];
  const spanMs = Math.max(summary.meta.minutes * 60_000, ...summary.points.map((p) => p.atMs), 1);
  const x = (ms: number) => pad + ((width - 2 * pad) * ms) / spanMs;
  const y = (percent: number) => height - pad - ((height - 2 * pad) * percent) / 100;
  const parts: string[] = [
    `<line x1="${pad}" y1="${y(0)}" x2="${width - pad}" y2="${y(0)}" stroke="#999"/>`,
    `<line x1="${pad}" y1="${y(0)}" x2="${pad}" y2="${y(100)}" stroke="#999"/>`,
    ...[0, 50, 100].map((v) => `<text x="${pad - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11">${v}</text>`),
    `<text x="${width / 2}" y="${height - 6}" text-anchor="middle" font-size="11">${t.minutes}</text>`,
    `<text x="${pad}" y="${y(0) + 14}" text-anchor="middle" font-size="11">0</text>`,
    `<text x="${width - pad}" y="${y(0) + 14}" text-anchor="middle" font-size="11">${+(spanMs / 60_000).toFixed(1)}</text>`,
  ];
  // A deadline past the session's end is in the stages table, not on the chart.
  const { meta } = summary;
  for (const stage of summary.plan.filter((s) => meta.series.includes(s.series) && s.byMinute * 60_000 <= spanMs)) {
    const at = x(stage.byMinute * 60_000);
    parts.push(`<line x1="${at}" y1="${y(0)}" x2="${at}" y2="${y(100)}" stroke="${colourOf(meta, stage.series)}" stroke-dasharray="4 3" data-deadline="${escapeXml(stage.series)}"/>`);
    parts.push(`<text x="${at + 3}" y="${y(100) + 10}" font-size="10" fill="${colourOf(meta, stage.series)}">${escapeXml(stage.series)} ${stage.byMinute}′</text>`);
  }
  for (const key of meta.series) {
    const points = summary.points.filter((p) => typeof p.scores[key] === "number");
    if (points.length === 0) continue;
    const coordinates = points.map((p) => `${x(p.atMs).toFixed(1)},${y(p.scores[key] as number).toFixed(1)}`).join(" ");
    const line = lineOf(meta, key);
    // Series often share a value (all at 0 at the start): drawn widest first, each its own dash, all stay visible.
    parts.push(`<polyline fill="none" stroke="${colourOf(meta, key)}" stroke-width="${line.width}"${line.dash ? ` stroke-dasharray="${line.dash}"` : ""} points="${coordinates}" data-series="${escapeXml(key)}" data-points="${points.length}"/>`);
    parts.push(...points.map((p) => `<circle cx="${x(p.atMs).toFixed(1)}" cy="${y(p.scores[key] as number).toFixed(1)}" r="3" fill="${colourOf(meta, key)}"/>`));
  }
  const legendX = width - pad - (meta.sprint ? 130 : 40);
  const legend = meta.series.map((key, i) => `<text x="${legendX}" y="${pad + 14 * i}" font-size="11" fill="${colourOf(meta, key)}">${escapeXml(key)}</text>`);
  return `<svg width="${width}" height="${height}" role="img" aria-label="${escapeXml(t.chart(meta.sprint === true))}" class="chart">${parts.join("")}${legend.join("")}</svg>`;
}

export function htmlSummary(summary: SessionSummary): string {
  const t = TEXT[summary.meta.lang];
  const { meta, points } = summary;
  const last = finalPoint(points);
  const reached = stagesReached(points, meta.series);
  const stageRows = summary.plan
    .filter((s) => meta.series.includes(s.series))
    .map((s) => {
      const at = reached[s.series];
      return `<tr data-stage="${escapeXml(s.series)}" data-reached="${at === undefined ? "" : at}"><td>${escapeXml(s.series)}</td><td>${t.planned} ${s.byMinute} ${t.minutes}</td><td>${at === undefined ? t.notReached : `${t.reached} ${clock(at, meta.lang)}`}</td></tr>`;
    })
    .join("");
  const failing = summary.failing.length === 0
    ? `<p>${t.noneFailing}</p>`
    : `<ul class="failing">${summary.failing.slice(0, SHOWN_FAILURES).map((n) => `<li>${escapeXml(n)}</li>`).join("")}${summary.failing.length > SHOWN_FAILURES ? `<li>${t.andMore(summary.failing.length - SHOWN_FAILURES)}</li>` : ""}</ul>`;
  const finalLine = last ? `<p class="final" data-passing="${last.passing}" data-total="${last.total}">${t.final}: ${meta.series.map((k) => `${escapeXml(k)} ${last.scores[k] ?? "-"}`).join(" · ")} (${last.passing}/${last.total})</p>` : "";
  const problems = summary.problems.length === 0 ? "" : `<h2>${t.problems}</h2><ul>${summary.problems.map((p) => `<li>${escapeXml(p)}</li>`).join("")}</ul>`;
  const questions = summary.questions.length === 0 ? "" : `<h2>${t.questions}</h2><ol class="questions">${summary.questions.map((q) => `<li>${withCode(q)}</li>`).join("")}</ol>`;
  return `<!doctype html>
<html lang="${meta.lang === "zh-CN" ? "zh-CN" : "en"}"><head><meta charset="utf-8"><title>${escapeXml(t.title(meta.kata))}</title>
<style>body{font:14px system-ui,sans-serif;max-width:760px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse}td{padding:2px 10px;border-bottom:1px solid #eee}h2{font-size:16px;margin-top:1.6em}</style>
</head><body>
<h1>${escapeXml(t.title(meta.kata))}</h1>
<p>${escapeXml(meta.startedAt)} · ${meta.minutes} ${t.minutes} · ${escapeXml(meta.series.join(", "))}</p>
${summary.ended?.by === "interrupt" ? `<p class="interrupted" data-at="${summary.ended.atMs}">${escapeXml(t.interrupted(clock(summary.ended.atMs, meta.lang), meta.minutes))}</p>\n` : ""}${finalLine}
<h2>${t.chart(meta.sprint === true)}</h2>
${chart(summary)}
<h2>${t.stages}</h2>
<table class="stages">${stageRows}</table>
<p class="hints" data-hints="${last?.hints ?? 0}">${t.hints(last?.hints ?? 0)}</p>
${problems}
<h2>${t.failing}</h2>
${failing}
${questions}
</body></html>
`;
}

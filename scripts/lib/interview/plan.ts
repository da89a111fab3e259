// The plan of a mock interview: for a kata, its stages (scripts/lib/stages.ts) for the levels
// graded, each with the minute it should be done by (the stages' own minutes, added up in order);
// for the sprint, its three schemes (scripts/lib/sprint.ts), a kata each, the same way.
import type { Level } from "../../../spec/support/test-tag.ts";
import { stagesOf } from "../stages.ts";
import { SPRINT, sprintDeadlines } from "../sprint.ts";
import type { Lang } from "./questions.ts";
import type { StageDeadline } from "./session-report.ts";

export function deadlines(kataId: string, levels: readonly Level[]): StageDeadline[] {
  let total = 0;
  const plan: StageDeadline[] = [];
  for (const stage of stagesOf(kataId) ?? []) {
    if (!levels.includes(stage.level)) continue;
    total += stage.minutes;
    plan.push({ series: stage.level, byMinute: total });
  }
  return plan;
}

export const sprintPlan = (): StageDeadline[] => sprintDeadlines().map(({ kata, byMinute }) => ({ series: kata, byMinute }));

const when = (byMinute: number, minutes: number, zh: boolean) =>
  `${zh ? `第 ${byMinute} 分钟前` : `by minute ${byMinute}`}${byMinute > minutes ? (zh ? "（超出本次时长）" : " (beyond this session)") : ""}`;

/** What the session prints first: one line per stage, and which stages this session's length leaves out. */
export function planLines(kataId: string, levels: readonly Level[], minutes: number, lang: Lang): string[] {
  const zh = lang === "zh-CN";
  const plan = deadlines(kataId, levels);
  const lines = [zh ? `模拟面试：${kataId}，${minutes} 分钟` : `Mock interview: ${kataId}, ${minutes} minutes`];
  for (const stage of stagesOf(kataId) ?? []) {
    const deadline = plan.find((d) => d.series === stage.level);
    if (!deadline) continue;
    lines.push(`  ${stage.level}  ${when(deadline.byMinute, minutes, zh)}: ${stage.summary[lang]}`);
  }
  const hint = `npm run hint -- ${Number(kataId.slice(0, 2))}`;
  lines.push(zh
    ? `保存文件即评分；卡住时：${hint}。时间到或按 Ctrl-C 时会最终评分并写出报告。`
    : `Every save is graded; stuck? ${hint}. At the end (or on Ctrl-C) the kata is graded once more and a report is written.`);
  return lines;
}

/** The sprint's opening: the question, then one line per scheme with its kata and its minute. */
export function sprintPlanLines(minutes: number, lang: Lang): string[] {
  const zh = lang === "zh-CN";
  const lines = zh
    ? [`20 分钟冲刺：不用框架手写工具调用，三种方案由浅入深，${minutes} 分钟；只计各 kata 的核心测试`]
    : [`The 20-minute sprint: hand-write tool use without a framework, three schemes of growing depth, ${minutes} minutes; each kata's core tests only`];
  for (const [i, { kata, byMinute }] of sprintDeadlines().entries()) {
    lines.push(`  ${i + 1}. ${kata}  ${when(byMinute, minutes, zh)}: ${SPRINT[i].summary[lang]}`);
  }
  lines.push(zh
    ? "每个 kata 保存即评分（只跑核心测试）；卡住时：npm run hint -- 1（或 2、3）。时间到或按 Ctrl-C 时三个 kata 会最终评分并写出报告。"
    : "Every save is graded (core tests only); stuck? npm run hint -- 1 (or 2, 3). At the end (or on Ctrl-C) the three katas are graded once more and a report is written.");
  return lines;
}

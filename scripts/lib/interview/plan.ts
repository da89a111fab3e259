// The stage plan of a mock interview: the kata's stages (scripts/lib/stages.ts) for the levels
// graded, each with the minute it should be done by (the stages' own minutes, added up in order).
import type { Level } from "../../../spec/support/test-tag.ts";
import { stagesOf } from "../stages.ts";
import type { Lang } from "./questions.ts";
import type { StageDeadline } from "./session-report.ts";

export function deadlines(kataId: string, levels: readonly Level[]): StageDeadline[] {
  let total = 0;
  const plan: StageDeadline[] = [];
  for (const stage of stagesOf(kataId) ?? []) {
    if (!levels.includes(stage.level)) continue;
    total += stage.minutes;
    plan.push({ level: stage.level, byMinute: total });
  }
  return plan;
}

/** What the session prints first: one line per stage, and which stages this session's length leaves out. */
export function planLines(kataId: string, levels: readonly Level[], minutes: number, lang: Lang): string[] {
  const zh = lang === "zh-CN";
  const plan = deadlines(kataId, levels);
  const lines = [zh ? `模拟面试：${kataId}，${minutes} 分钟` : `Mock interview: ${kataId}, ${minutes} minutes`];
  for (const stage of stagesOf(kataId) ?? []) {
    const deadline = plan.find((d) => d.level === stage.level);
    if (!deadline) continue;
    const when = zh ? `第 ${deadline.byMinute} 分钟前` : `by minute ${deadline.byMinute}`;
    const beyond = deadline.byMinute > minutes ? (zh ? "（超出本次时长）" : " (beyond this session)") : "";
    lines.push(`  ${stage.level}  ${when}${beyond}: ${stage.summary[lang]}`);
  }
  const hint = `npm run hint -- ${Number(kataId.slice(0, 2))}`;
  lines.push(zh
    ? `保存文件即评分；卡住时：${hint}。时间到或按 Ctrl-C 时会最终评分并写出报告。`
    : `Every save is graded; stuck? ${hint}. At the end (or on Ctrl-C) the kata is graded once more and a report is written.`);
  return lines;
}

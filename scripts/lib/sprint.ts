// The 20-minute sprint: the interview question this project comes from ("hand-write tool use
// without a framework") answered in its three schemes of growing depth, one kata each, graded on
// each kata's core tests alone (scripts/lib/grader/core.ts). The plan gives each scheme its
// minutes; like the stage plan (stages.ts) they are estimates: the core of a kata is 40-80 lines
// written the way the round writes them (spec/fixtures/minimal/ holds such code, and passes them).
import type { Lang } from "./interview/questions.ts";

export interface SprintScheme {
  kata: string;
  /** Minutes for this scheme alone; the schemes are taken in order. */
  minutes: number;
  /** What its core tests ask for, in one line. */
  summary: Record<Lang, string>;
}

export const SPRINT_MINUTES = 20;

export const SPRINT: readonly SprintScheme[] = [
  {
    kata: "01-regex-dispatch",
    minutes: 6,
    summary: {
      en: "regex extraction and a whitelist: register tools, find name(args) with a string and a number argument, dispatch it, refuse an unknown tool, never eval",
      "zh-CN": "正则提取加白名单：注册工具，找出带字符串和数字参数的 name(args)，分发执行，拒绝未知工具，绝不用 eval",
    },
  },
  {
    kata: "02-schema-validation",
    minutes: 7,
    summary: {
      en: "a JSON protocol with schema checks: take the calls out of an OpenAI tool_calls message, decode the string arguments, check type and required, turn a bad call into feedback",
      "zh-CN": "带 schema 校验的 JSON 协议：从 OpenAI 的 tool_calls 消息中取出调用，解码字符串形式的参数，检查 type 和 required，把错误的调用变成反馈",
    },
  },
  {
    kata: "03-agent-loop",
    minutes: 7,
    summary: {
      en: "the agent loop: run a tool, feed its result back, end on a plain answer, answer an unknown or failing tool with an error message, stop at maxSteps",
      "zh-CN": "智能体循环：执行工具，把结果反馈给模型，遇到普通回答就结束，未知或失败的工具以错误消息回复，到 maxSteps 停止",
    },
  },
];

/** Each scheme with the minute it should be done by (the minutes added up in order). */
export function sprintDeadlines(): Array<{ kata: string; byMinute: number }> {
  let total = 0;
  return SPRINT.map((scheme) => ({ kata: scheme.kata, byMinute: (total += scheme.minutes) }));
}

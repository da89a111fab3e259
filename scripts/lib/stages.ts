// The stage plan of each kata: the levels taken one at a time, as an interview slot of 45-60
// minutes takes them. The same plan is the "Stages" section of every kata README (en and zh-CN);
// scripts/test/stages.test.ts keeps the two in step and checks the tasks against spec/manifest.json.
//
// The minutes are estimates, not measurements of candidates. They come from the size of the code a
// stage needs in the reference (solutions/NN-name/), for a candidate who has read the README:
// an L1-only implementation is about 200 lines for kata 1 (a third of the reference), 200 for
// kata 2 (a fifth) and 280 for kata 3 (two fifths). Each stage's minutes are its own, not a total.
import type { Level } from "../../spec/support/test-tag.ts";

export interface Stage {
  level: Level;
  /** Estimated minutes for this stage alone, once the stages before it pass. */
  minutes: number;
  /** The README's task numbers that have tests of this level, in order. */
  tasks: number[];
  /** One line: what to write in this stage. */
  summary: { en: string; "zh-CN": string };
}

export const STAGES: Readonly<Record<string, readonly Stage[]>> = {
  "01-regex-dispatch": [
    {
      level: "L1",
      minutes: 30,
      tasks: [1, 2, 4, 5],
      summary: {
        en: "plain calls and their literals, then lists, markers and call-only fences; lookup and names(); dispatch that binds and runs; + - * / % and parentheses",
        "zh-CN": "普通调用及其字面量，然后是列表、标记行和只含调用的代码块；lookup 和 names()；绑定参数并执行的 dispatch；+ - * / % 和括号",
      },
    },
    {
      level: "L2",
      minutes: 75,
      tasks: [1, 2, 3, 4, 5],
      summary: {
        en: "the exact rules: call or prose, where reading stops, escapes, full-width punctuation; parse errors (task 3); every error code; ** and unary minus, SyntaxError or RangeError",
        "zh-CN": "精确的规则：调用还是正文、读取在哪里停、转义、全角标点；解析错误（任务 3）；每个错误码；** 和一元负号，SyntaxError 还是 RangeError",
      },
    },
    {
      level: "L3",
      minutes: 30,
      tasks: [1, 2, 3, 4, 5, 6],
      summary: {
        en: "limits and safety: nesting 64 and 100, Object.prototype names never tools, messages that never quote the text, hostile thrown values, linear time on 1 MiB",
        "zh-CN": "限制与安全：嵌套 64 层和 100 层，Object.prototype 上的名字永远不是工具，消息从不引用原文，恶意的抛出值，1 MiB 输入上的线性时间",
      },
    },
  ],
  "02-schema-validation": [
    {
      level: "L1",
      minutes: 30,
      tasks: [1, 2, 3, 5, 6],
      summary: {
        en: "calls in every shape (OpenAI, Anthropic, one object, tags, JSON in prose); arguments as JSON text or object; type, properties, required, enum, const, items and bounds; numeric strings coerced; one feedback line per error",
        "zh-CN": "各种形态的调用（OpenAI、Anthropic、单个对象、标签、文字中的 JSON）；JSON 文本或对象形式的参数；type、properties、required、enum、const、items 和上下限；转换数字字符串；每个错误一行反馈",
      },
    },
    {
      level: "L2",
      minutes: 90,
      tasks: [1, 2, 3, 4, 5, 6],
      summary: {
        en: "the exact contract: ids, broken and double-encoded arguments, the whole keyword subset ($ref, anyOf, oneOf, not, pattern, format), schema errors, every error with its path in order, narrow coercion, capped feedback",
        "zh-CN": "精确的契约：id、损坏和双重编码的参数、完整的关键字子集（$ref、anyOf、oneOf、not、pattern、format）、schema 错误、每个错误带路径并按顺序、窄范围的类型转换、有上限的反馈",
      },
    },
    {
      level: "L3",
      minutes: 40,
      tasks: [1, 2, 3, 5, 7],
      summary: {
        en: "limits and safety: depth 100 without recursion, evaluation depth 500, $ref cycles, unsafe patterns refused, __proto__ as plain data, messages that never quote raw text, never a throw",
        "zh-CN": "限制与安全：不靠递归的 100 层深度、500 层求值深度、$ref 循环、拒绝危险的 pattern、__proto__ 只是普通数据、消息从不引用原始文本、从不抛出",
      },
    },
  ],
  "03-agent-loop": [
    {
      level: "L1",
      minutes: 45,
      tasks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      summary: {
        en: "the happy path of every task: the loop and its history, calls at the same time, the five stops, error envelopes, timeout and retry on the injected clock, truncation, masking, approve and policy, the trace, both adapters",
        "zh-CN": "每个任务的正常路径：循环和历史、同时执行的调用、五种停止、错误信封、基于注入时钟的超时和重试、截断、脱敏、approve 和 policy、追踪、两个适配器",
      },
    },
    {
      level: "L2",
      minutes: 90,
      tasks: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
      summary: {
        en: "the exact contract: normalised replies and unique ids, the gates in order with every code, retries only when retryable with backoff, toolChoice, mask before cut, the full trace, the fuzz and stateful properties",
        "zh-CN": "精确的契约：规范化的回复和唯一的 id、按顺序的关卡和每个错误码、只对可重试的失败退避重试、toolChoice、先脱敏再截断、完整的追踪、模糊测试和有状态测试的性质",
      },
    },
    {
      level: "L3",
      minutes: 45,
      tasks: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      summary: {
        en: "abort everywhere (model, tools, backoff, waiting calls, policy, approval), default concurrency 4, nothing unmasked in the trace, times from the clock, timers cleared",
        "zh-CN": "处处可中止（模型、工具、退避等待、排队的调用、policy、审批），默认并发 4，追踪里没有未脱敏的内容，时间来自时钟，计时器被清除",
      },
    },
  ],
  "04-stream-assembly": [
    {
      level: "L1",
      minutes: 30,
      tasks: [1, 2, 3],
      summary: {
        en: "chat-completions chunks: text released as it comes, calls by index with id and name taken once and arguments appended, ready when the next call starts or the stream finishes, arguments parsed once; the result and replay",
        "zh-CN": "chat-completions 数据块：文本到达即放出，按 index 组装调用，id 和名字只取一次，参数追加，下一个调用开始或流结束时就绪，参数只解析一次；结果和 replay",
      },
    },
    {
      level: "L2",
      minutes: 90,
      tasks: [1, 2, 3, 4],
      summary: {
        en: "the exact rules: which call a fragment belongs to, every server quirk, ready only at a call's end, truncation, strict arguments and their error codes; the Responses, Anthropic, Gemini and Ollama dialects; the recordings",
        "zh-CN": "精确的规则：片段属于哪个调用、每一种服务器怪癖、只在调用结束时就绪、截断、严格的参数读取及其错误码；Responses、Anthropic、Gemini 和 Ollama 方言；录制的流",
      },
    },
    {
      level: "L3",
      minutes: 45,
      tasks: [5, 6, 7],
      summary: {
        en: "raw server-sent events and NDJSON cut anywhere, as text and bytes; <tool_call> tags in the text; limits, hostile streams, linear time",
        "zh-CN": "在任意位置被切开的原始 server-sent events 和 NDJSON，文本和字节两种形式；文本中的 <tool_call> 标签；上限、恶意的流、线性时间",
      },
    },
  ],
};

/** The plan of one kata ("01-regex-dispatch"), or undefined for a kata without one. */
export function stagesOf(kataId: string): readonly Stage[] | undefined {
  return Object.hasOwn(STAGES, kataId) ? STAGES[kataId] : undefined;
}

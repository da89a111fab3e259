// The stage plan of each kata: the levels taken one at a time, as an interview slot of 45-60
// minutes takes them. It is the one source of the "Stages" table of every kata README (en and
// zh-CN): `npm run stages` (scripts/stages.ts) writes each table between the markers below, and
// scripts/test/stages.test.ts fails when a README's table is not what it would write, and checks
// the tasks against spec/manifest.json. Edit the plan here, never the tables.
//
// The minutes are estimates, not measurements of candidates. They come from the size of the code a
// stage needs in the reference (solutions/NN-name/), for a candidate who has read the README:
// an L1-only implementation is about 200 lines for kata 1 (a third of the reference), 200 for
// kata 2 (a fifth) and 280 for kata 3 (two fifths). Each stage's minutes are its own, not a total.
import type { Level } from "../../spec/support/test-tag.ts";
import { SPRINT } from "./sprint.ts";

export type Lang = "en" | "zh-CN";
type Text = Record<Lang, string>;

export interface Stage {
  level: Level;
  /** Estimated minutes for this stage alone, once the stages before it pass. */
  minutes: number;
  /** The README's task numbers that have tests of this level, in order. */
  tasks: number[];
  /** One plain line: what to write in this stage (the mock interview prints it). */
  summary: Text;
  /** The README table's "write" cell (Markdown, one line). */
  write: Text;
  /** The README table's "can wait" cell (Markdown, one line). */
  canWait: Text;
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
      write: {
        en: "plain calls with string, number, `True`/`None`, list and object arguments (a backslash before a character gives that character); pythonic lists, `TOOL_CALL` markers, call-only fences; `lookup` and `names()`; `dispatch` that binds and runs; `+ - * / %` and parentheses",
        "zh-CN": "普通调用，参数是字符串、数字、`True`/`None`、列表和对象（反斜杠加一个字符得到那个字符）；pythonic 列表、`TOOL_CALL` 标记行、只含调用的代码块；`lookup` 和 `names()`；绑定参数并执行的 `dispatch`；`+ - * / %` 和括号",
      },
      canWait: {
        en: "full-width punctuation, where an argument list goes wrong, `\\x`/`\\u` escapes, task 3, the error codes, `**` and unary minus",
        "zh-CN": "全角标点、参数列表在哪里出错、`\\x`/`\\u` 转义、任务 3、错误码、`**` 和一元负号",
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
      write: {
        en: "the exact rules of tasks 1-5: call or prose, whitespace and quotes, where reading stops, every escape, full-width punctuation; parse errors (task 3); binding and every error code; `**`, unary minus, `SyntaxError` or `RangeError`",
        "zh-CN": "任务 1-5 的精确规则：调用还是正文、空白和引号、读取在哪里停、每种转义、全角标点；解析错误（任务 3）；参数绑定和每个错误码；`**`、一元负号、`SyntaxError` 还是 `RangeError`",
      },
      canWait: {
        en: "the limits of L3",
        "zh-CN": "L3 的各种上限",
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
      write: {
        en: "nesting limits (64, 100), `Object.prototype` names never tools, messages that never quote the text, hostile thrown values, linear time on 1 MiB (task 6)",
        "zh-CN": "嵌套上限（64、100）、`Object.prototype` 上的名字永远不是工具、消息从不引用原文、恶意的抛出值、1 MiB 输入上的线性时间（任务 6）",
      },
      canWait: {
        en: "nothing",
        "zh-CN": "无",
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
      write: {
        en: "calls from OpenAI `tool_calls`, one entry or `{name, arguments}` object, Anthropic `tool_use`, `<tool_call>` tags and JSON in prose or a fence; arguments as JSON text or an object; `type`, `properties`, `required`, `additionalProperties`, `enum`, `const`, `items`, `minItems`/`maxItems`/`uniqueItems`, `minimum` ... `exclusiveMaximum`, boolean schemas, with the error's path and keyword; numeric strings coerced; one feedback line per error",
        "zh-CN": "从 OpenAI `tool_calls`、单个条目或 `{name, arguments}` 对象、Anthropic `tool_use`、`<tool_call>` 标签以及文字或代码块中的 JSON 里取出调用；JSON 文本或对象形式的参数；`type`、`properties`、`required`、`additionalProperties`、`enum`、`const`、`items`、`minItems`/`maxItems`/`uniqueItems`、`minimum` ... `exclusiveMaximum`、布尔 schema，错误带路径和关键字；转换数字字符串；每个错误一行反馈",
      },
      canWait: {
        en: "ids, `argumentsError` and double decoding, `anyOf`/`oneOf`/`allOf`/`not`, `$ref`, `pattern`, `format`, `minLength`, `multipleOf`, `SchemaError`, the order and messages of task 4, task 7",
        "zh-CN": "id、`argumentsError` 和两次解码、`anyOf`/`oneOf`/`allOf`/`not`、`$ref`、`pattern`、`format`、`minLength`、`multipleOf`、`SchemaError`、任务 4 的顺序和消息、任务 7",
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
      write: {
        en: "the exact contract of tasks 1-6: ids, broken and double-encoded arguments, the whole keyword subset, schema errors, every error with its path in the README's order, narrow coercion, capped feedback",
        "zh-CN": "任务 1-6 的精确契约：id、损坏和双重编码的参数、完整的关键字子集、schema 错误、每个错误带路径并按 README 的顺序、窄范围的类型转换、有上限的反馈",
      },
      canWait: {
        en: "the limits of L3",
        "zh-CN": "L3 的各种上限",
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
      write: {
        en: "depth 100 measured without recursion, evaluation depth 500, `$ref` cycles, unsafe patterns refused, `__proto__` as plain data, messages that never quote raw text, never a throw (task 7)",
        "zh-CN": "不靠递归测量的 100 层深度、500 层求值深度、`$ref` 循环、拒绝危险的 pattern、`__proto__` 只是普通数据、消息从不引用原始文本、从不抛出（任务 7）",
      },
      canWait: {
        en: "nothing",
        "zh-CN": "无",
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
      write: {
        en: "the loop with summed usage; one assistant message, then one tool message per call; the calls of a step at the same time; the five stops checked before each request; unknown tools, arguments against the schema, thrown errors as error envelopes; timeout and retries through the injected clock; truncation with the marker; `maskSecrets` and clean error text; `approve` and `policy`; the trace events and `onTrace`; both adapters",
        "zh-CN": "累计 usage 的循环；一条 assistant 消息，然后每个调用一条 tool 消息；同一步的调用同时执行；每次请求前检查五种停止；未知工具、按 schema 检查参数、抛出的错误都变成错误信封；通过注入时钟的超时和重试；带标记的截断；`maskSecrets` 和干净的错误文本；`approve` 和 `policy`；追踪事件和 `onTrace`；两个适配器",
      },
      canWait: {
        en: "reply normalisation, unique ids, the exact order of the gates, which failures retry and the backoff, `toolChoice`, aborts during a step, option checks",
        "zh-CN": "回复的规范化、唯一 id、关卡的确切顺序、哪些失败会重试以及退避、`toolChoice`、一步进行中的中止、选项检查",
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
      write: {
        en: "the exact contract of tasks 1-11 and every error code; the fuzz and stateful properties (tasks 12-13)",
        "zh-CN": "任务 1-11 的精确契约和每个错误码；模糊测试和有状态测试的性质（任务 12-13）",
      },
      canWait: {
        en: "the aborts and limits of L3",
        "zh-CN": "L3 的中止和各种上限",
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
      write: {
        en: "abort everywhere (model, tools, backoff, waiting calls, policy, approval), default concurrency 4, nothing unmasked in the trace, times from the clock, timers cleared",
        "zh-CN": "处处可中止（模型、工具、退避等待、排队的调用、policy、审批），默认并发 4，追踪里没有未脱敏的内容，时间来自时钟，计时器被清除",
      },
      canWait: {
        en: "nothing",
        "zh-CN": "无",
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
      write: {
        en: "chat-completions chunks: text released as it comes; calls by `index`, id and name taken once, arguments appended; a call ready when the next one starts or the stream finishes; arguments parsed once; the result and `replay`",
        "zh-CN": "chat-completions 的数据块：文本到达即放出；按 `index` 组装调用，id 和名字只取一次，参数追加；下一个调用开始或流结束时调用就绪；参数只解析一次；结果和 `replay`",
      },
      canWait: {
        en: "every quirk, the other dialects, truncation, the error codes",
        "zh-CN": "各种怪癖、其他方言、截断、错误码",
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
      write: {
        en: "the exact rules of tasks 1-4: which call a fragment belongs to, every server quirk, readiness only at a call's end, truncation, strict arguments and their error codes, the Responses, Anthropic, Gemini and Ollama dialects, the real recordings",
        "zh-CN": "任务 1-4 的精确规则：片段属于哪个调用、每一种服务器怪癖、只在调用结束时就绪、截断、严格的参数读取及其错误码、Responses、Anthropic、Gemini 和 Ollama 方言、真实录制的流",
      },
      canWait: {
        en: "raw streams, tags, limits",
        "zh-CN": "原始流、标签、各种上限",
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
      write: {
        en: "raw server-sent events and NDJSON cut anywhere, as text and as bytes; `<tool_call>` tags in the text; limits, hostile streams, linear time",
        "zh-CN": "在任意位置被切开的原始 server-sent events 和 NDJSON，以文本和字节两种形式；文本中的 `<tool_call>` 标签；上限、恶意的流、线性时间",
      },
      canWait: {
        en: "nothing",
        "zh-CN": "无",
      },
    },
  ],
};

/** The plan of one kata ("01-regex-dispatch"), or undefined for a kata without one. */
export function stagesOf(kataId: string): readonly Stage[] | undefined {
  return Object.hasOwn(STAGES, kataId) ? STAGES[kataId] : undefined;
}

/** The lines that open and close the generated table in a README's Stages section. */
export const TABLE_START = "<!-- stages:start -->";
export const TABLE_END = "<!-- stages:end -->";

const TABLE_WORDS: Record<Lang, { header: string; unit: string }> = {
  en: { header: "| stage | time | tasks | write | can wait |", unit: "min" },
  "zh-CN": { header: "| 阶段 | 时间 | 任务 | 要写的 | 可以先放一放的 |", unit: "分钟" },
};

/** The README file of each language. */
export const README_FILES: Record<Lang, string> = { en: "README.md", "zh-CN": "README.zh-CN.md" };

function cell(text: string, what: string): string {
  if (text.trim() === "" || /[|\n\r]/.test(text)) throw new Error(`${what}: a table cell must be one line of text without "|"`);
  return text;
}

/** The Stages table of a kata's README, markers included: "| L2 | +75 min | 1, 2, 3 | ... |". */
export function stagesTable(kataId: string, lang: Lang): string {
  const stages = stagesOf(kataId);
  if (!stages) throw new Error(`no stage plan for ${kataId}`);
  const { header, unit } = TABLE_WORDS[lang];
  const rows = stages.map((stage, i) => {
    const what = `${kataId} ${stage.level} (${lang})`;
    const time = `${i === 0 ? "" : "+"}${stage.minutes} ${unit}`;
    return `| ${stage.level} | ${time} | ${stage.tasks.join(", ")} | ${cell(stage.write[lang], what)} | ${cell(stage.canWait[lang], what)} |`;
  });
  // Blank lines around the table: a Markdown table then never runs into a marker.
  return [TABLE_START, "", header, "|---|---|---|---|---|", ...rows, "", ...coreLines(kataId, lang), TABLE_END].join("\n");
}

/** The sprint's part of a kata, under its table: what its core tests ask for, and how to run them alone. */
function coreLines(kataId: string, lang: Lang): string[] {
  const index = SPRINT.findIndex((s) => s.kata === kataId);
  if (index === -1) return [];
  const number = Number(kataId.slice(0, 2));
  return [lang === "zh-CN"
    ? `**核心测试**（20 分钟冲刺的第 ${index + 1} 个方案，\`npm run interview -- --sprint\`）：标记为 \`core\` 的测试（\`[L1 w1 core]\`）要求${SPRINT[index].summary["zh-CN"]}。单独运行它们：\`npm run watch -- ${number} --core\`。`
    : `**Core** (scheme ${index + 1} of the 20-minute sprint, \`npm run interview -- --sprint\`): the tests tagged \`core\` (\`[L1 w1 core]\`) ask for ${SPRINT[index].summary.en}. Run them alone: \`npm run watch -- ${number} --core\`.`, ""];
}

/** Where the generated table lies in a README: the offsets of its start marker and of the end of its end marker. */
export function tableBlock(readme: string, where: string): { start: number; end: number } {
  const start = readme.indexOf(`\n${TABLE_START}\n`);
  const endMarker = readme.indexOf(`\n${TABLE_END}\n`, start + 1);
  if (start === -1 || endMarker === -1) throw new Error(`${where}: no "${TABLE_START}" ... "${TABLE_END}" block`);
  if (readme.indexOf(`\n${TABLE_START}\n`, start + 1) !== -1) throw new Error(`${where}: more than one "${TABLE_START}"`);
  return { start: start + 1, end: endMarker + 1 + TABLE_END.length };
}

/** The README with its Stages table (between the markers) written from the plan; the rest untouched. */
export function withStagesTable(readme: string, kataId: string, lang: Lang, where = `${kataId}/${README_FILES[lang]}`): string {
  const { start, end } = tableBlock(readme, where);
  return readme.slice(0, start) + stagesTable(kataId, lang) + readme.slice(end);
}

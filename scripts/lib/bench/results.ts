// What `npm run bench -- --write` keeps of a run, and how the pages show it. Every figure lives in
// docs/benchmarks.json; the blocks between the markers of docs/benchmarks.md, of its Chinese twin
// and of the README's speed section are rendered from that file by the functions below, and only
// by them. scripts/test/benchmarks-doc.test.ts renders them again from the JSON and fails when a
// page says anything else.
import { join } from "node:path";
import { geometricMean } from "../compare/ratio.ts";
import { PROJECT_ROOT } from "../impl-root.ts";
import { median } from "./measure.ts";
import { duration, num, table, type Machine } from "./report.ts";

export const RESULTS_JSON = join(PROJECT_ROOT, "docs", "benchmarks.json");

export type Lang = "en" | "zh-CN";

/** The run a part was measured in: the command as typed and the machine when it started. */
export interface Run {
  command: string;
  machine: Machine;
}

/** The 1-minute load average when a part started and when it ended: other processes share the cores. */
export interface Load {
  start: number;
  end: number;
}

export interface Kata1Results {
  run: Run;
  load: Load;
  /** BFCL ground truths as text replies, beside JSON.parse of the same calls. */
  replies: Array<{ bytes: number; calls: number; parserMs: number; parserMiBps: number; jsonMs: number; jsonMiBps: number }>;
  /** Adversarial text: time per byte at each size (`sizes`, in bytes), per shape. */
  adversarial: { sizes: number[]; shapes: Array<{ shape: string; nsPerByte: number[]; largestMs: number }> };
  /** The reference beside the parser before its rewrite, measured by npm run compare's method:
   * per case, the reference's time / the old code's, and the spread of that ratio. */
  before: { commit: string; cases: Array<{ name: string; ratio: number; low: number; high: number }>; error: string | null };
}

export interface Kata2Results {
  run: Run;
  load: Load;
  distinctSchemas: number;
  /** ns per call of the reference, Ajv (compiled, allErrors) and @cfworker/json-schema. */
  validation: Array<{ set: "corpus" | "hot" | "mutated"; calls: number; tools: number; repeat: number; referenceNs: number; ajvNs: number; cfworkerNs: number }>;
  setup: { ajvCompileMs: number; cfworkerMs: number };
  extraction: { messages: number; calls: number; rows: Array<{ input: "raw" | "prose"; referenceUs: number; jsonParseUs: number; mibPerSec: number }> };
}

export interface Kata3Results {
  run: Run;
  load: Load;
  /** µs per step (one call a step) or per call (one step of many calls), beside a bare loop. */
  overhead: Array<{ shape: "steps" | "wide"; count: number; referenceUs: number; bareUs: number }>;
  toolMs: number;
  /** One step of `tools` tools of `toolMs` each, at most `limit` at once: the run's wall time. */
  concurrency: Array<{ tools: number; limit: number; defaultLimit: boolean; ms: number }>;
}

export interface Kata4Results {
  run: Run;
  load: Load;
  /** Streams as their text in 4 KiB chunks (server-sent events; Ollama's, NDJSON), replayed, beside
   * JSON.parse of the arguments they assemble and of their events, each as one JSON document: the
   * recordings of spec/data/streams (`streams` files) and BFCL's calls in a dialect. */
  streams: Array<{
    input: "recordings" | "chat-completions" | "responses" | "anthropic" | "gemini";
    streams: number; bytes: number; calls: number; argumentBytes: number;
    replayMs: number; replayMiBps: number; argumentsMs: number; eventsMs: number;
  }>;
  /** One call whose argument holds `sizes` bytes in 100-character fragments (`fragments` at the
   * largest), as parsed events and as server-sent events in 100-character chunks: ns per byte of
   * argument at each size; at the largest, the time of the replay and of JSON.parse of the argument
   * and of the events. */
  argument: { sizes: number[]; fragments: number; forms: Array<{ form: "events" | "sse"; nsPerByte: number[]; largestMs: number; argumentsMs: number; eventsMs: number }> };
}

export interface GraderResults {
  run: Run;
  load: Load;
  /** Rounds of (trivial vitest run, grade, the specs by vitest alone, trivial run): wall and CPU ms. */
  rounds: Array<{
    trivialMs: number; trivialCpuMs: number | null;
    gradeMs: number; gradeCpuMs: number | null; status: number | null; overall: string;
    bareMs: number; bareCpuMs: number | null;
  }>;
  /** Each kata's passing tests in the median round's grade ("163/163"). */
  katas: Array<{ kata: string; passing: string }>;
  bareTests: number;
  /** The sandboxed grade of katas 1-3 beside the grade at `commit`, in rounds. */
  sandbox: {
    commit: string;
    rounds: Array<{ sandboxedMs: number; sandboxedCpuMs: number | null; sandboxedStatus: number | null; beforeMs: number; beforeCpuMs: number | null; beforeStatus: number | null }>;
    error: string | null;
  };
  watch: { kata: string; saves: number; firstMs: number[]; fullMs: number[] };
}

export interface BenchResults {
  about: string;
  parts: { kata1?: Kata1Results; kata2?: Kata2Results; kata3?: Kata3Results; kata4?: Kata4Results; grader?: GraderResults };
}

/** The parts in the order the pages give them (and docs/benchmarks.json keeps them). */
export const PART_ORDER = ["kata1", "kata2", "kata3", "kata4", "grader"] as const satisfies ReadonlyArray<keyof BenchResults["parts"]>;

export const ABOUT = "Written by `npm run bench -- --write`: the figures of docs/benchmarks.md, its zh-CN twin and the README's speed table, whose blocks are rendered from this file (scripts/lib/bench/results.ts; `npm run bench -- --render` renders them again). Times in ms, ns or µs as their names say; ratios are of times.";

// --- numbers as the pages write them ----------------------------------------------------------

type Text = { en: string; zh: string };
const say = (lang: Lang, text: Text) => (lang === "en" ? text.en : text.zh);

export const times = (r: number): string => `${num(r)}x`;
/** "1.97x–2.42x", or one figure when both ends round alike. */
function span(values: number[], format: (n: number) => string): string {
  const [lo, hi] = [format(Math.min(...values)), format(Math.max(...values))];
  return lo === hi ? lo : `${lo}–${hi}`;
}
const ns = (n: number) => duration(n / 1e6);
const us = (n: number) => duration(n / 1e3);
const KiB = 1024;
const size = (bytes: number) => (bytes >= KiB * KiB ? `${num(bytes / KiB / KiB)} MiB` : `${num(bytes / KiB)} KiB`);
const orQ = (ms: number | null) => (ms === null ? "?" : duration(ms));
const ratioOrQ = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? "?" : times(a / b));

/** The round whose ratio is the median one (of an odd number of rounds, the middle). */
function medianRound<T>(rounds: T[], ratio: (r: T) => number): T {
  return [...rounds].sort((a, b) => ratio(a) - ratio(b))[Math.floor(rounds.length / 2)];
}

// --- the targets ---------------------------------------------------------------------------

export interface Target {
  id: string;
  /** What, in a few words. */
  what: Text;
  /** The limit, or null for a figure that is only reported. */
  limit: Text | null;
  /** The figure the target is judged on, with what it is made of in a few words. */
  figure: Text;
  /** Whether the limit is met; null when reported only, or not measured. */
  met: boolean | null;
  measured: boolean;
}

const SANDBOX_LIMIT = 1.3;
const GRADE_LIMIT = 6;

const notMeasured = (id: string, what: Text, limit: Text | null, why = ""): Target => ({
  id, what, limit, met: null, measured: false,
  figure: why ? { en: `not measured: ${why}`, zh: `未测量：${why}` } : { en: "not measured", zh: "未测量" },
});

/** The kata 1 cases beside the old code, by kind: BFCL replies, then each adversarial shape. */
function beforeGroups(cases: Kata1Results["before"]["cases"]): Array<{ label: string; ratios: number[] }> {
  const groups = new Map<string, number[]>();
  for (const c of cases) {
    const label = c.name.replace(/,[^,]*$/, "").replace(/^adversarial: /, "");
    groups.set(label, [...(groups.get(label) ?? []), c.ratio]);
  }
  return [...groups].map(([label, ratios]) => ({ label, ratios }));
}

export function targets(results: BenchResults): Target[] {
  const { kata1, kata2, kata3, kata4, grader } = results.parts;
  const out: Target[] = [];

  // Kata 1.
  const beforeWhat = { en: "kata 1 parser beside the parser it replaced", zh: "kata 1 解析器对比它取代的解析器" };
  const beforeLimit = { en: "at most 0.5x its time", zh: "耗时至多为其 0.5 倍" };
  const linearWhat = { en: "kata 1 parser, adversarial text: linear time", zh: "kata 1 解析器，对抗性文本：线性时间" };
  const linearLimit = { en: "ns/byte grows under 3x from 10 KiB to 1 MiB", zh: "10 KiB 到 1 MiB 每字节耗时增长小于 3 倍" };
  const fastWhat = { en: "kata 1 parser, 1 MiB of adversarial text", zh: "kata 1 解析器，1 MiB 对抗性文本" };
  const fastLimit = { en: "under 100 ms for every shape", zh: "每种形态都在 100 ms 以内" };
  const jsonWhat = { en: "kata 1 parser beside `JSON.parse`, BFCL replies", zh: "kata 1 解析器对比 `JSON.parse`，BFCL 回复" };
  if (!kata1) out.push(notMeasured("kata1-before", beforeWhat, beforeLimit), notMeasured("kata1-linear", linearWhat, linearLimit), notMeasured("kata1-1mib", fastWhat, fastLimit), notMeasured("kata1-json", jsonWhat, null));
  else {
    if (kata1.before.error !== null || kata1.before.cases.length === 0) out.push(notMeasured("kata1-before", beforeWhat, beforeLimit, kata1.before.error ?? ""));
    else {
      const g = geometricMean(kata1.before.cases.map((c) => c.ratio));
      out.push({
        id: "kata1-before", what: beforeWhat, limit: beforeLimit, measured: true, met: g <= 0.5,
        figure: { en: `${times(g)} (geometric mean of ${kata1.before.cases.length} cases)`, zh: `${times(g)}（${kata1.before.cases.length} 个用例的几何平均）` },
      });
    }
    const growth = kata1.adversarial.shapes.map((sh) => sh.nsPerByte.at(-1)! / sh.nsPerByte[0]);
    out.push({
      id: "kata1-linear", what: linearWhat, limit: linearLimit, measured: true, met: growth.every((g) => g < 3),
      figure: { en: `${span(growth, times)} over ${growth.length} shapes`, zh: `${growth.length} 种形态 ${span(growth, times)}` },
    });
    const largest = kata1.adversarial.shapes.map((sh) => sh.largestMs);
    out.push({
      id: "kata1-1mib", what: fastWhat, limit: fastLimit, measured: true, met: largest.every((ms) => ms < 100),
      figure: { en: span(largest, duration), zh: span(largest, duration) },
    });
    const ratios = kata1.replies.map((r) => r.parserMs / r.jsonMs);
    out.push({ id: "kata1-json", what: jsonWhat, limit: null, measured: true, met: null, figure: { en: `${span(ratios, times)} its time`, zh: `耗时为其 ${span(ratios, times)}` } });
  }

  // Kata 2.
  const sets = {
    corpus: { what: { en: "kata 2 validator beside Ajv, BFCL corpus (one call per schema or so)", zh: "kata 2 校验器对比 Ajv，BFCL 语料（几乎每个 schema 一次调用）" }, limit: { en: "at most 1x Ajv's time", zh: "耗时至多为 Ajv 的 1 倍" }, max: 1 },
    hot: { what: { en: "kata 2 validator beside Ajv, a few tools called again and again", zh: "kata 2 校验器对比 Ajv，少数工具反复调用" }, limit: { en: "at most 4x Ajv's time", zh: "耗时至多为 Ajv 的 4 倍" }, max: 4 },
    mutated: { what: { en: "kata 2 validator beside Ajv, every call mutated", zh: "kata 2 校验器对比 Ajv，每个调用都变异" }, limit: null, max: null },
  } as const;
  for (const set of ["corpus", "hot", "mutated"] as const) {
    const { what, limit, max } = sets[set];
    const row = kata2?.validation.find((v) => v.set === set);
    if (!row) {
      out.push(notMeasured(`kata2-${set}`, what, limit));
      continue;
    }
    const r = row.referenceNs / row.ajvNs;
    out.push({
      id: `kata2-${set}`, what, limit, measured: true, met: max === null ? null : r <= max,
      figure: { en: `${times(r)} (${ns(row.referenceNs)} a call)`, zh: `${times(r)}（每次 ${ns(row.referenceNs)}）` },
    });
  }
  const extractWhat = { en: "kata 2 extraction beside `JSON.parse`", zh: "kata 2 提取对比 `JSON.parse`" };
  if (!kata2) out.push(notMeasured("kata2-extract", extractWhat, null));
  else {
    const ratios = kata2.extraction.rows.map((r) => r.referenceUs / r.jsonParseUs);
    out.push({ id: "kata2-extract", what: extractWhat, limit: null, measured: true, met: null, figure: { en: `${span(ratios, times)} its time`, zh: `耗时为其 ${span(ratios, times)}` } });
  }

  // Kata 3.
  const overheadWhat = { en: "kata 3 loop beside a bare loop", zh: "kata 3 循环对比最简循环" };
  const concurrentWhat = { en: "kata 3, one step of N slow tools", zh: "kata 3，一步中 N 个慢工具" };
  const concurrentLimit = { en: "at most 1.5x the slowest tool", zh: "至多为最慢工具的 1.5 倍" };
  if (!kata3) out.push(notMeasured("kata3-overhead", overheadWhat, null), notMeasured("kata3-concurrency", concurrentWhat, concurrentLimit));
  else {
    const steps = kata3.overhead.find((o) => o.shape === "steps")!;
    out.push({
      id: "kata3-overhead", what: overheadWhat, limit: null, measured: true, met: null,
      figure: { en: `${times(steps.referenceUs / steps.bareUs)} (${us(steps.referenceUs)} a step)`, zh: `${times(steps.referenceUs / steps.bareUs)}（每步 ${us(steps.referenceUs)}）` },
    });
    const free = kata3.concurrency.filter((c) => c.limit >= c.tools);
    const worst = Math.max(...free.map((c) => c.ms)) / kata3.toolMs;
    const n = span(free.map((c) => c.tools), String);
    out.push({
      id: "kata3-concurrency", what: concurrentWhat, limit: concurrentLimit, measured: true, met: worst <= 1.5,
      figure: { en: `at most ${times(worst)} (N = ${n})`, zh: `至多 ${times(worst)}（N = ${n}）` },
    });
  }

  // Kata 4.
  const streamJsonWhat = { en: "kata 4 assembler beside `JSON.parse` of the arguments, BFCL and 1 MiB streams", zh: "kata 4 组装器对比对参数做 `JSON.parse`，BFCL 流与 1 MiB 流" };
  const streamLinearWhat = { en: "kata 4 assembler, a 1 MiB argument in 10,000 fragments: linear time", zh: "kata 4 组装器，1 MiB 参数分成 1 万个片段：线性时间" };
  const streamLinearLimit = { en: "ns/byte grows under 3x from 16 KiB to 1 MiB", zh: "16 KiB 到 1 MiB 每字节耗时增长小于 3 倍" };
  if (!kata4) out.push(notMeasured("kata4-json", streamJsonWhat, null), notMeasured("kata4-linear", streamLinearWhat, streamLinearLimit));
  else {
    // The recordings are left out: mostly text, they carry few bytes of arguments (see the details).
    const ratios = [...kata4.streams.filter((r) => r.input !== "recordings").map((r) => r.replayMs / r.argumentsMs), ...kata4.argument.forms.map((f) => f.largestMs / f.argumentsMs)];
    out.push({ id: "kata4-json", what: streamJsonWhat, limit: null, measured: true, met: null, figure: { en: `${span(ratios, times)} its time`, zh: `耗时为其 ${span(ratios, times)}` } });
    const growth = kata4.argument.forms.map((f) => f.nsPerByte.at(-1)! / f.nsPerByte[0]);
    out.push({
      id: "kata4-linear", what: streamLinearWhat, limit: streamLinearLimit, measured: true, met: growth.every((g) => g < 3),
      figure: { en: `${span(growth, times)} (events, server-sent events)`, zh: `${span(growth, times)}（事件、服务器发送事件）` },
    });
  }

  // The grader.
  const gradeWhat = { en: "`npm run grade` on the references", zh: "参考实现上的 `npm run grade`" };
  const gradeLimit = { en: `at most ${GRADE_LIMIT} trivial vitest runs`, zh: `至多 ${GRADE_LIMIT} 次最小 vitest 运行` };
  const floorWhat = { en: "the same specs by vitest alone (the floor)", zh: "同一批 spec 由 vitest 单独运行（下限）" };
  const sandboxWhat = { en: "the sandbox's cost: grade beside the grade before it", zh: "沙箱的代价：评分对比沙箱之前的评分" };
  const sandboxLimit = { en: `at most ${SANDBOX_LIMIT}x its time`, zh: `耗时至多为其 ${SANDBOX_LIMIT} 倍` };
  const watchWhat = { en: "`npm run watch -- 1`: save to first answer", zh: "`npm run watch -- 1`：从保存到首个结果" };
  const watchLimit = { en: "under 1 s", zh: "1 秒以内" };
  if (!grader) {
    out.push(notMeasured("grade", gradeWhat, gradeLimit), notMeasured("grade-floor", floorWhat, null), notMeasured("sandbox", sandboxWhat, sandboxLimit), notMeasured("watch", watchWhat, watchLimit));
    return out;
  }
  const kept = medianRound(grader.rounds, (r) => r.gradeMs / r.trivialMs);
  const gradeRatio = kept.gradeMs / kept.trivialMs;
  out.push({
    id: "grade", what: gradeWhat, limit: gradeLimit, measured: true, met: kept.status === 0 && gradeRatio <= GRADE_LIMIT,
    figure: { en: `${num(gradeRatio)} trivial runs (${duration(kept.gradeMs)})`, zh: `${num(gradeRatio)} 次最小运行（${duration(kept.gradeMs)}）` },
  });
  out.push({
    id: "grade-floor", what: floorWhat, limit: null, measured: true, met: null,
    figure: { en: `${num(kept.bareMs / kept.trivialMs)} trivial runs (${duration(kept.bareMs)})`, zh: `${num(kept.bareMs / kept.trivialMs)} 次最小运行（${duration(kept.bareMs)}）` },
  });
  const { sandbox } = grader;
  if (sandbox.error !== null || sandbox.rounds.length === 0) out.push(notMeasured("sandbox", sandboxWhat, sandboxLimit, sandbox.error ?? ""));
  else {
    const round = medianRound(sandbox.rounds, (r) => r.sandboxedMs / r.beforeMs);
    const wall = round.sandboxedMs / round.beforeMs;
    out.push({
      id: "sandbox", what: sandboxWhat, limit: sandboxLimit, measured: true, met: round.sandboxedStatus === 0 && round.beforeStatus === 0 && wall <= SANDBOX_LIMIT,
      figure: { en: `${times(wall)} (${duration(round.sandboxedMs)} beside ${duration(round.beforeMs)})`, zh: `${times(wall)}（${duration(round.sandboxedMs)} 对 ${duration(round.beforeMs)}）` },
    });
  }
  const first = median(grader.watch.firstMs);
  out.push({
    id: "watch", what: watchWhat, limit: watchLimit, measured: true, met: first < 1_000,
    figure: { en: `${duration(first)} (median of ${grader.watch.saves} saves)`, zh: `${duration(first)}（${grader.watch.saves} 次保存的中位数）` },
  });
  return out;
}

const verdict = (t: Target): Text =>
  !t.measured ? { en: "—", zh: "—" }
  : t.met === null ? { en: "reported", zh: "仅报告" }
  : t.met ? { en: "**met**", zh: "**达到**" } : { en: "**not met**", zh: "**未达到**" };

// --- the runs --------------------------------------------------------------------------------

const PART_NAMES: Record<keyof BenchResults["parts"], Text> = {
  kata1: { en: "kata 1", zh: "kata 1" },
  kata2: { en: "kata 2", zh: "kata 2" },
  kata3: { en: "kata 3", zh: "kata 3" },
  kata4: { en: "kata 4", zh: "kata 4" },
  grader: { en: "the grader", zh: "评分器" },
};

/** One line per run the figures come from (one, after a full run); the machine once when the runs share it. */
function runLines(results: BenchResults, lang: Lang): string {
  const runs = new Map<string, { run: Run; parts: string[] }>();
  for (const part of PART_ORDER) {
    const value = results.parts[part];
    if (!value) continue;
    const key = JSON.stringify(value.run);
    const entry = runs.get(key) ?? { run: value.run, parts: [] };
    entry.parts.push(say(lang, PART_NAMES[part]));
    runs.set(key, entry);
  }
  if (runs.size === 0) return say(lang, { en: "Nothing measured yet: run `npm run bench -- --write`.", zh: "尚未测量：运行 `npm run bench -- --write`。" });
  const all = runs.size === 1;
  const machineOf = ({ cpu, cores, node, platform }: Machine) => JSON.stringify([cpu, cores, node, platform]);
  const list = [...runs.values()];
  if (!all && list.every(({ run }) => machineOf(run.machine) === machineOf(list[0].run.machine))) {
    const m = list[0].run.machine;
    const each = list.map(({ run, parts }) => say(lang, {
      en: `by \`${run.command}\` (${parts.join(", ")}) on ${run.machine.date.slice(0, 10)}, load average ${run.machine.load.toFixed(1)} at the start`,
      zh: `由 \`${run.command}\`（${parts.join("、")}）于 ${run.machine.date.slice(0, 10)} 测得，开始时负载均值 ${run.machine.load.toFixed(1)}`,
    }));
    return say(lang, {
      en: `Measured on ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.platform}: ${each.join("; ")}.`,
      zh: `测量机器：${m.cpu}，${m.cores} 核，Node ${m.node}，${m.platform}。${each.join("；")}。`,
    });
  }
  return list.map(({ run, parts }) => {
    const m = run.machine;
    const which = all ? "" : say(lang, { en: ` (${parts.join(", ")})`, zh: `（${parts.join("、")}）` });
    return say(lang, {
      en: `Measured by \`${run.command}\`${which} on ${m.date.slice(0, 10)}: ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.platform}, load average ${m.load.toFixed(1)} at the start.`,
      zh: `由 \`${run.command}\`${which} 于 ${m.date.slice(0, 10)} 测得：${m.cpu}，${m.cores} 核，Node ${m.node}，${m.platform}，开始时负载均值 ${m.load.toFixed(1)}。`,
    });
  }).join("\n");
}

// --- the blocks ------------------------------------------------------------------------------

/** One row per target: what, its limit, the figure, the verdict. */
function targetTable(results: BenchResults, lang: Lang): string {
  const headers = lang === "en" ? ["target", "limit", "measured", ""] : ["目标", "限度", "测得", ""];
  return table(headers, targets(results).map((t) => [say(lang, t.what), t.limit ? say(lang, t.limit) : "—", say(lang, t.figure), say(lang, verdict(t))]));
}

/** The summary of docs/benchmarks.md: the runs, then one row per target. */
export function renderSummary(results: BenchResults, lang: Lang): string {
  return `${runLines(results, lang)}\n\n${targetTable(results, lang)}`;
}

/** The README's speed section: the same rows, and the grader's unit in absolute time. */
export function renderReadme(results: BenchResults, lang: Lang): string {
  const trivial = results.parts.grader ? medianRound(results.parts.grader.rounds, (r) => r.gradeMs / r.trivialMs).trivialMs : undefined;
  const unit = trivial === undefined ? "" : say(lang, {
    en: ` A trivial vitest run (one spec file, one \`expect\`), the grader's unit, took ${duration(trivial)}.`,
    zh: `一次最小 vitest 运行（一个 spec 文件、一个 \`expect\`），即评分器的单位，用了 ${duration(trivial)}。`,
  });
  return `${runLines(results, lang)}${unit}\n\n${targetTable(results, lang)}`;
}

/** The details of docs/benchmarks.md: every table of the run, part by part. */
export function renderDetails(results: BenchResults, lang: Lang): string {
  const { kata1, kata2, kata3, kata4, grader } = results.parts;
  const L = (en: string, zh: string) => (lang === "en" ? en : zh);
  const out: string[] = [];
  if (kata1) out.push(kata1Details(kata1, L));
  if (kata2) out.push(kata2Details(kata2, L));
  if (kata3) out.push(kata3Details(kata3, L));
  if (kata4) out.push(kata4Details(kata4, L));
  if (grader) out.push(graderDetails(grader, L));
  return out.join("\n\n");
}

type Say = (en: string, zh: string) => string;

const loadLine = (load: Load, L: Say) =>
  L(`Load average ${load.start.toFixed(1)} when this part started, ${load.end.toFixed(1)} when it ended.`,
    `本部分开始时负载均值 ${load.start.toFixed(1)}，结束时 ${load.end.toFixed(1)}。`);

export function kata1Details(k: Kata1Results, L: Say): string {
  const replies = table(
    [L("reply", "回复"), L("calls", "调用"), "parseToolCalls", "MiB/s", "JSON.parse", L("ratio", "比值")],
    k.replies.map((r) => [size(r.bytes), String(r.calls), duration(r.parserMs), num(r.parserMiBps), duration(r.jsonMs), times(r.parserMs / r.jsonMs)]),
  );
  const adversarial = table(
    [L("shape", "形态"), ...k.adversarial.sizes.map((sz) => `${size(sz)} ns/B`), "1 MiB", L("growth", "增长")],
    k.adversarial.shapes.map((sh) => [sh.shape, ...sh.nsPerByte.map(num), duration(sh.largestMs), times(sh.nsPerByte.at(-1)! / sh.nsPerByte[0])]),
  );
  const before = k.before.error !== null
    ? L(`Beside the parser it replaced: not measured (${k.before.error}).`, `对比它取代的解析器：未测量（${k.before.error}）。`)
    : L(`Beside the parser it replaced (commit ${k.before.commit}), the same cases by \`npm run compare\`'s method, the reference's time / the old code's: `,
        `对比它取代的解析器（提交 ${k.before.commit}），同样的用例，采用 \`npm run compare\` 的方法，参考实现耗时 / 旧代码耗时：`)
      + beforeGroups(k.before.cases).map((g) => `${g.label} ${span(g.ratios, times)}`).join(L("; ", "；")) + L(".", "。");
  return [
    L("### Kata 1: the text parser", "### Kata 1：文本解析器"),
    loadLine(k.load, L),
    L("`parseToolCalls` on BFCL ground-truth calls written as text replies (prose, then `name(key=value, ...)` lines), beside `JSON.parse` of the same calls as one JSON document:",
      "`parseToolCalls` 处理写成文本回复（先是散文，再是 `name(key=value, ...)` 行）的 BFCL 标准答案调用，对比把同样的调用写成一个 JSON 文档后的 `JSON.parse`："),
    replies,
    L("Adversarial text (what makes a backtracking parser blow up), ns per byte at each size; growth is 1 MiB's ns/B over 10 KiB's (1x is linear, 100x quadratic):",
      "对抗性文本（让回溯式解析器爆炸的输入），各尺寸下每字节纳秒数；增长为 1 MiB 与 10 KiB 每字节耗时之比（1 倍为线性，100 倍为平方级）："),
    adversarial,
    before,
  ].join("\n\n");
}

export function kata2Details(k: Kata2Results, L: Say): string {
  const label = (v: Kata2Results["validation"][number]) =>
    v.set === "hot" ? L(`${v.tools} tools x ${v.repeat} calls`, `${v.tools} 个工具各 ${v.repeat} 次`)
    : v.set === "corpus" ? L(`every ground truth, ${v.calls} calls`, `全部标准答案，${v.calls} 次`)
    : L(`every call mutated, ${v.calls}`, `全部变异调用，${v.calls} 次`);
  const validation = table(
    [L("arguments", "参数"), L("reference", "参考实现"), "Ajv", "@cfworker", L("/ Ajv", "/ Ajv"), L("/ @cfworker", "/ @cfworker")],
    k.validation.map((v) => [label(v), ns(v.referenceNs), ns(v.ajvNs), ns(v.cfworkerNs), times(v.referenceNs / v.ajvNs), times(v.referenceNs / v.cfworkerNs)]),
  );
  const extraction = table(
    [L("message", "消息"), "extractToolCalls", "JSON.parse", L("ratio", "比值")],
    k.extraction.rows.map((r) => [r.input === "raw" ? L("raw JSON", "原始 JSON") : L("inside prose and a fence", "包在散文和代码块中"), us(r.referenceUs), us(r.jsonParseUs), times(r.referenceUs / r.jsonParseUs)]),
  );
  return [
    L("### Kata 2: validation and extraction", "### Kata 2：校验与提取"),
    loadLine(k.load, L),
    L(`\`validate\`, time per call, beside Ajv 8 (\`Ajv2020\`, compiled, \`allErrors: true\`) and @cfworker/json-schema 4 (\`shortCircuit: false\`) on BFCL's tool schemas (${k.distinctSchemas} distinct). Set-up is in no figure: Ajv compiled the schemas in ${duration(k.setup.ajvCompileMs)}, @cfworker in ${duration(k.setup.cfworkerMs)}; the reference compiles each on its first use. Mutated: wrong type, missing required argument, value outside an enum, extra argument, in turn.`,
      `\`validate\` 每次调用的耗时，在 BFCL 的工具 schema（${k.distinctSchemas} 个不同的）上对比 Ajv 8（\`Ajv2020\`，已编译，\`allErrors: true\`）和 @cfworker/json-schema 4（\`shortCircuit: false\`）。准备工作不计入任何数字：Ajv 编译这些 schema 用了 ${duration(k.setup.ajvCompileMs)}，@cfworker ${duration(k.setup.cfworkerMs)}；参考实现在每个 schema 首次使用时编译。变异依次为：类型错误、缺少必填参数、枚举之外的值、多余参数。`),
    validation,
    L(`\`extractToolCalls\` on ${k.extraction.messages} OpenAI assistant messages (${k.extraction.calls} calls, \`arguments\` as JSON strings), time per call, beside \`JSON.parse\` of the message and of each \`arguments\`, told where the JSON is:`,
      `\`extractToolCalls\` 处理 ${k.extraction.messages} 条 OpenAI assistant 消息（${k.extraction.calls} 个调用，\`arguments\` 为 JSON 字符串），每个调用的耗时，对比对消息及每个 \`arguments\` 做 \`JSON.parse\`（预先告知 JSON 的位置）：`),
    extraction,
  ].join("\n\n");
}

export function kata3Details(k: Kata3Results, L: Say): string {
  const overhead = table(
    [L("run", "运行"), L("reference", "参考实现"), L("bare loop", "最简循环"), L("ratio", "比值")],
    k.overhead.map((o) => [
      o.shape === "steps" ? L(`${o.count} steps of one call, a step`, `${o.count} 步、每步一个调用，每步`) : L(`one step of ${o.count} calls, a call`, `一步 ${o.count} 个调用，每个调用`),
      us(o.referenceUs), us(o.bareUs), times(o.referenceUs / o.bareUs),
    ]),
  );
  const concurrency = table(
    [L("tools", "工具"), L("at once", "并发"), L("run time", "运行时间"), L("/ floor", "/ 下限")],
    k.concurrency.map((c) => [String(c.tools), c.defaultLimit ? L(`${c.limit} (default)`, `${c.limit}（默认）`) : String(c.limit), duration(c.ms), times(c.ms / (Math.ceil(c.tools / c.limit) * k.toolMs))]),
  );
  return [
    L("### Kata 3: the agent loop", "### Kata 3：智能体循环"),
    loadLine(k.load, L),
    L("Overhead: a scripted model (`spec/support/agent-harness/`) and tools that answer at once, beside a bare loop (`scripts/lib/bench/bare-loop.ts`: no argument check, envelope, masking, truncation, timeout or trace) given the same model and tools:",
      "开销：脚本化的模型（`spec/support/agent-harness/`）和立即返回的工具，对比使用同样模型和工具的最简循环（`scripts/lib/bench/bare-loop.ts`：没有参数检查、信封、脱敏、截断、超时或追踪）："),
    overhead,
    L(`One step of N tools of ${k.toolMs} ms each (\`setTimeout\`), in wall time; the floor is ceil(N / at once) x ${k.toolMs} ms:`,
      `一步中 N 个各需 ${k.toolMs} ms 的工具（\`setTimeout\`），墙钟时间；下限为 ceil(N / 并发) x ${k.toolMs} ms：`),
    concurrency,
  ].join("\n\n");
}

export function kata4Details(k: Kata4Results, L: Say): string {
  const label = (r: Kata4Results["streams"][number]) => (r.input === "recordings" ? L(`${r.streams} recordings`, `${r.streams} 个录制`) : L(`BFCL, ${r.input}`, `BFCL，${r.input}`));
  const streams = table(
    [L("stream", "流"), L("size", "大小"), L("calls", "调用"), "replay", "MiB/s", L("JSON.parse arguments", "JSON.parse 参数"), L("ratio", "比值"), L("JSON.parse events", "JSON.parse 事件"), L("ratio", "比值")],
    k.streams.map((r) => [label(r), size(r.bytes), String(r.calls), duration(r.replayMs), num(r.replayMiBps), duration(r.argumentsMs), times(r.replayMs / r.argumentsMs), duration(r.eventsMs), times(r.replayMs / r.eventsMs)]),
  );
  const { sizes } = k.argument;
  const argument = table(
    [L("input", "输入"), ...sizes.map((sz) => `${size(sz)} ns/B`), size(sizes.at(-1)!), L("growth", "增长"), L("/ JSON.parse argument", "/ JSON.parse 参数"), L("/ JSON.parse events", "/ JSON.parse 事件")],
    k.argument.forms.map((f) => [
      f.form === "events" ? L("parsed events", "解析后的事件") : L("server-sent events", "服务器发送事件"),
      ...f.nsPerByte.map(num), duration(f.largestMs), times(f.nsPerByte.at(-1)! / f.nsPerByte[0]), times(f.largestMs / f.argumentsMs), times(f.largestMs / f.eventsMs),
    ]),
  );
  const recorded = k.streams.find((r) => r.input === "recordings");
  const few = recorded ? L(` The recordings are mostly text (${num(recorded.argumentBytes)} bytes of arguments): their ratio to the events is the one that tells.`,
    `录制大多是文本（参数仅 ${num(recorded.argumentBytes)} 字节），应看对比事件的比值。`) : "";
  return [
    L("### Kata 4: stream assembly", "### Kata 4：流式组装"),
    loadLine(k.load, L),
    L(`\`replay\` on streams pushed as text in 4 KiB chunks: the recordings of \`spec/data/streams\` (ten providers, five dialects), and BFCL's ground-truth calls as server-sent events of four dialects, each call's arguments in 16-character fragments; beside \`JSON.parse\` of the arguments it assembles and of the stream's events, each as one JSON document.${few}`,
      `\`replay\` 处理以 4 KiB 文本块推入的流：\`spec/data/streams\` 的录制（十家服务商、五种方言），以及四种方言的服务器发送事件中的 BFCL 标准答案调用（参数按 16 个字符分片）；对比对组装出的参数、对流的事件（各为一个 JSON 文档）做 \`JSON.parse\`。${few}`),
    streams,
    L(`One argument in 100-character fragments (${num(k.argument.fragments)} at ${size(sizes.at(-1)!)}), as parsed events and as server-sent events in 100-character chunks: ns per byte of argument at each size; growth is ${size(sizes.at(-1)!)}'s ns/B over ${size(sizes[0])}'s (1x is linear, ${num(sizes.at(-1)! / sizes[0])}x quadratic); at ${size(sizes.at(-1)!)}, beside \`JSON.parse\` of the argument and of the events:`,
      `一个参数按 100 个字符分片（${size(sizes.at(-1)!)} 时 ${num(k.argument.fragments)} 片），作为解析后的事件和按 100 个字符分块的服务器发送事件：各尺寸下每字节参数的纳秒数；增长为 ${size(sizes.at(-1)!)} 与 ${size(sizes[0])} 每字节耗时之比（1 倍为线性，${num(sizes.at(-1)! / sizes[0])} 倍为平方级）；${size(sizes.at(-1)!)} 时对比对参数和对事件做 \`JSON.parse\`：`),
    argument,
  ].join("\n\n");
}

export function graderDetails(g: GraderResults, L: Say): string {
  const kept = medianRound(g.rounds, (r) => r.gradeMs / r.trivialMs);
  const exit = (status: number | null) => (status === 0 ? "" : L(` (exit code ${status})`, `（退出码 ${status}）`));
  const mark = (yes: boolean) => (yes ? "*" : "");
  const rounds = table(
    [L("round", "轮"), L("trivial run", "最小运行"), "`npm run grade`", L("ratio", "比值"), L("specs alone", "仅 spec"), L("ratio", "比值")],
    g.rounds.map((r, i) => [
      `${i + 1}${mark(r === kept)}`,
      `${duration(r.trivialMs)} / ${orQ(r.trivialCpuMs)}`,
      `${duration(r.gradeMs)} / ${orQ(r.gradeCpuMs)}${exit(r.status)}`,
      times(r.gradeMs / r.trivialMs),
      `${duration(r.bareMs)} / ${orQ(r.bareCpuMs)}`,
      `${times(r.bareMs / r.trivialMs)} / ${ratioOrQ(r.bareCpuMs, r.trivialCpuMs)}`,
    ]),
  );
  const parts = [
    L("### The grader", "### 评分器"),
    loadLine(g.load, L),
    L(`Wall / CPU time of each command, npm and tsx start-up included, in ${g.rounds.length} rounds of: a trivial run, \`npm run grade -- --impl solutions\`, the same visible specs by vitest alone (\`scripts/lib/bench/bare-specs.ts\`: no isolation, nothing of the grader), a trivial run. The grade's CPU is the machine's busy time (its sandboxes leave its process tree), so its ratio is of wall times. * marks the median round, which counts; its grade: overall ${kept.overall}, ${g.katas.map((k) => `${k.kata} ${k.passing}`).join(", ")}.`,
      `每条命令的墙钟 / CPU 时间（含 npm 和 tsx 的启动），共 ${g.rounds.length} 轮，每轮依次为：一次最小运行、\`npm run grade -- --impl solutions\`、同一批可见 spec 由 vitest 单独运行（\`scripts/lib/bench/bare-specs.ts\`：不隔离，没有评分器的任何部分）、一次最小运行。评分的 CPU 是整台机器的繁忙时间（它的沙箱离开了它的进程树），所以它的比值是墙钟时间之比。* 标出居中的一轮，以它为准；其评分：总分 ${kept.overall}，${g.katas.map((k) => `${k.kata} ${k.passing}`).join("，")}。`),
    rounds,
  ];
  const { sandbox } = g;
  if (sandbox.error !== null) parts.push(L(`The sandbox's cost: not measured (${sandbox.error}).`, `沙箱的代价：未测量（${sandbox.error}）。`));
  else {
    const keptSandbox = medianRound(sandbox.rounds, (r) => r.sandboxedMs / r.beforeMs);
    parts.push(
      L(`The sandbox's cost: \`npm run grade -- --impl solutions --kata 1,2,3\` here and in a copy of commit ${sandbox.commit}, the last grader that ran the graded code in the specs' own processes, alternating which goes first:`,
        `沙箱的代价：在此处和提交 ${sandbox.commit}（最后一个在 spec 自己的进程里运行被评代码的评分器）的副本中运行 \`npm run grade -- --impl solutions --kata 1,2,3\`，轮流先后：`),
      table(
        [L("round", "轮"), L("sandboxed", "沙箱中"), sandbox.commit, L("ratio", "比值")],
        sandbox.rounds.map((r, i) => [
          `${i + 1}${mark(r === keptSandbox)}`,
          `${duration(r.sandboxedMs)} / ${orQ(r.sandboxedCpuMs)}${exit(r.sandboxedStatus)}`,
          `${duration(r.beforeMs)} / ${orQ(r.beforeCpuMs)}${exit(r.beforeStatus)}`,
          `${times(r.sandboxedMs / r.beforeMs)} / ${ratioOrQ(r.sandboxedCpuMs, r.beforeCpuMs)}`,
        ]),
      ),
    );
  }
  parts.push(
    L(`\`npm run watch -- 1\` on a copy of kata 1's reference, ${g.watch.saves} saves of \`parse.ts\` a second apart (\`scripts/lib/bench/watch-latency.ts\`), from the write to the printed \`k of n passing\` line:`,
      `在 kata 1 参考实现的副本上运行 \`npm run watch -- 1\`，每隔一秒保存一次 \`parse.ts\`，共 ${g.watch.saves} 次（\`scripts/lib/bench/watch-latency.ts\`），从写入到打印出 \`k of n passing\` 行：`),
    table(
      [L("answer", "结果"), L("median", "中位数"), L("range", "范围")],
      [
        [L("first (slow tests left out)", "首个（略去慢测试）"), duration(median(g.watch.firstMs)), span(g.watch.firstMs, duration)],
        [L("full", "完整"), duration(median(g.watch.fullMs)), span(g.watch.fullMs, duration)],
      ],
    ),
  );
  return parts.join("\n\n");
}

// --- markers ---------------------------------------------------------------------------------

type Render = (r: BenchResults, lang: Lang) => string;

/**
 * Tables as a page writes them: without the padding that lines them up in a terminal (the console
 * keeps it). Pages are read rendered, padding cannot line up Chinese cells anyway, and
 * docs/benchmarks*.md must stay under the size scripts/test/benchmarks-doc.test.ts allows.
 */
export function unpadded(markdown: string): string {
  return markdown.split("\n").map((line) => {
    if (!line.startsWith("|")) return line;
    if (/^\|[\s|:-]+\|$/.test(line)) return `|${line.slice(1, -1).split("|").map((rule) => (rule.trim().endsWith(":") ? "---:" : "---")).join("|")}|`;
    return line.replace(/ {2,}\|/g, " |").replace(/\| {2,}/g, "| ");
  }).join("\n");
}

const forPage = (render: Render): Render => (r, lang) => unpadded(render(r, lang));

/** The generated blocks of each page, by marker name, and what renders them. */
export const PAGES: Array<{ path: string; lang: Lang; blocks: Array<[name: string, render: Render]> }> = [
  { path: join(PROJECT_ROOT, "docs", "benchmarks.md"), lang: "en", blocks: [["bench-summary", forPage(renderSummary)], ["bench-details", forPage(renderDetails)]] },
  { path: join(PROJECT_ROOT, "docs", "benchmarks.zh-CN.md"), lang: "zh-CN", blocks: [["bench-summary", forPage(renderSummary)], ["bench-details", forPage(renderDetails)]] },
  { path: join(PROJECT_ROOT, "README.md"), lang: "en", blocks: [["bench-readme", forPage(renderReadme)]] },
  { path: join(PROJECT_ROOT, "README.zh-CN.md"), lang: "zh-CN", blocks: [["bench-readme", forPage(renderReadme)]] },
];

const markers = (name: string) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** What lies between a block's markers (trimmed), or undefined when the page lacks them. */
export function readBlock(text: string, name: string): string | undefined {
  const [start, end] = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  return from < 0 || to < 0 ? undefined : text.slice(from + start.length, to).trim();
}

/** The page with a block's content replaced; throws when the page lacks its markers. */
export function writeBlock(text: string, name: string, content: string, page: string): string {
  const [start, end] = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`${page} has no ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content.trim()}\n${text.slice(to)}`;
}

/** Figures to 6 significant digits: the JSON stays readable, and the pages are rendered from it as
 * written (bench.ts parses what it writes before rendering). */
export function toJson(results: BenchResults): string {
  return `${JSON.stringify(results, (_key, value) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toPrecision(6)) : value), 2)}\n`;
}

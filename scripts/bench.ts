// npm run bench: the references beside their peers, and the grader's own speed.
//
//   kata 1  the parser on BFCL replies beside JSON.parse of the same calls; adversarial text from
//           10 KiB to 1 MiB, where the time per byte must stay flat (linear time); the parser
//           beside the one it replaced (lib/bench/kata1-before.ts)
//   kata 2  the validator beside Ajv (compiled, allErrors) and @cfworker/json-schema on the BFCL
//           schemas; extraction of tool_calls messages beside JSON.parse
//   kata 3  the loop's overhead per step beside a bare loop; a step of N concurrent 100 ms tools
//           beside the slowest tool's 100 ms
//   kata 4  the assembler on the recorded streams (spec/data/streams) and on BFCL calls streamed in
//           four dialects, beside JSON.parse of the arguments it assembles and of the streams'
//           events; a 1 MiB argument in 10,000 fragments, from 16 KiB to 1 MiB, where the time per
//           byte must stay flat (linear time)
//   grader  `npm run grade -- --impl solutions`, and the same specs run by vitest alone (the floor),
//           in trivial vitest runs of the same moment; the sandboxed grade beside the grade before
//           the sandbox; time from a save to watch's answers
//
// Every comparison is measured side by side in one run (interleaved rounds, see
// lib/bench/measure.ts) and printed as ratios. Nothing here asserts a time: benchmarks inform,
// specs decide. `--write` keeps the figures in docs/benchmarks.json and renders from it the
// generated blocks of docs/benchmarks.md, its zh-CN twin and the README's speed section
// (lib/bench/results.ts); scripts/test/benchmarks-doc.test.ts checks that they agree.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { Validator } from "@cfworker/json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as kata1 from "../solutions/01-regex-dispatch/index.ts";
import * as kata2 from "../solutions/02-schema-validation/index.ts";
import * as kata3 from "../solutions/03-agent-loop/index.ts";
import * as kata4 from "../solutions/04-stream-assembly/index.ts";
import kata1Cases, {
  ADVERSARIAL, ADVERSARIAL_SIZES, REPLY_SIZES, adversarialCaseName, bfclReplies, replyCaseName, sizeLabel,
} from "../spec/01-regex-dispatch/bench-cases.ts";
import kata2Cases, { CASE_NAMES as K2, HOT_REPEAT, HOT_TOOLS, argumentBytes, bfclCorpus, type Validation } from "../spec/02-schema-validation/bench-cases.ts";
import { KNOWN_BFCL_DEFECTS } from "../spec/02-schema-validation/bfcl.ts";
import kata3Cases, {
  CASE_NAMES as K3, CONCURRENT, LIMITED, OVERHEAD_STEPS, TOOL_MS, WIDE_CALLS, stepByStep, wideStep,
} from "../spec/03-agent-loop/bench-cases.ts";
import kata4Cases, { STREAM_DIALECTS, bfclStream, bigCall, streamCaseName } from "../spec/04-stream-assembly/bench-cases.ts";
import { everyN, parseNdjson, parseSse, sse } from "../spec/04-stream-assembly/streams.ts";
import type { BenchCase } from "../spec/support/bench-case.ts";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { COMPARE_SPEED } from "./lib/compare/speed.ts";
import { bareLoop } from "./lib/bench/bare-loop.ts";
import { kata1BeforeRewrite } from "./lib/bench/kata1-before.ts";
import { measure, measureSideBySide, type MeasureOptions } from "./lib/bench/measure.ts";
import { duration, machine } from "./lib/bench/report.ts";
import {
  ABOUT, PAGES, PART_ORDER, RESULTS_JSON, graderDetails, kata1Details, kata2Details, kata3Details, kata4Details, renderSummary, toJson, writeBlock,
  type BenchResults, type GraderResults, type Kata1Results, type Kata2Results, type Kata3Results, type Kata4Results, type Run,
} from "./lib/bench/results.ts";
import { CUT_ON_PURPOSE, recordings } from "./lib/bench/recordings.ts";
import { childrenCpuMs, timeTrivialRuns } from "./lib/bench/trivial-run.ts";
import { timeBareSpecs, type BareRun } from "./lib/bench/bare-specs.ts";
import { listKatas } from "./lib/grader/katas.ts";
import { watchLatency } from "./lib/bench/watch-latency.ts";
import { BEFORE_SANDBOX, checkoutOf, machineBusyMs } from "./lib/bench/grader-before-sandbox.ts";

/** Saves timed by the watch benchmark. */
const WATCH_SAVES = 7;

const FLAGS: Record<string, FlagSpec> = {
  kata: { value: true, valueName: "LIST", description: "only these parts: 1,2,3,4 and/or grader (default: all)" },
  quick: { value: false, description: "shorter time budgets, no grader part (about a minute instead of several)" },
  write: { value: false, description: "keep the figures in docs/benchmarks.json (the parts measured replace theirs) and render the pages' blocks from it" },
  render: { value: false, description: "measure nothing: render the pages' blocks from docs/benchmarks.json again" },
};

/** Time spent timing each case of a comparison (warm-up not included), and in how many rounds. */
type Settings = Required<MeasureOptions>;

/** The English of a bilingual text, for the console: what docs/benchmarks.md shows. */
const en = (text: string, _zh: string): string => text;

function pick(cases: BenchCase[], name: string): BenchCase {
  const found = cases.find((c) => c.name === name);
  if (!found) throw new Error(`no bench case named "${name}"`);
  return found;
}

/**
 * Node's process warnings, counted instead of printed one by one: a loop that puts more than ten
 * listeners on one AbortSignal makes Node warn for every run, which would bury the tables.
 */
const warnings = new Map<string, number>();
function countWarnings(): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    const key = `${warning.name}: ${warning.message.replace(/\d+ (abort )?listeners/, "N $1listeners")}`;
    warnings.set(key, (warnings.get(key) ?? 0) + 1);
  });
}

function reportWarnings(where: string): void {
  for (const [warning, count] of warnings) console.log(`> Node warned ${count} time${count === 1 ? "" : "s"} during ${where}: "${warning}"\n`);
  warnings.clear();
}

/** Throws when a benchmark would time the wrong work: a fast wrong answer is no result. */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench sanity check failed: ${what}`);
}

// --- kata 1 ------------------------------------------------------------------------------------

async function benchKata1(s: Settings, run: Run, quick: boolean): Promise<Omit<Kata1Results, "load">> {
  const cases = kata1Cases(kata1);
  const replies: Kata1Results["replies"] = [];
  for (const size of REPLY_SIZES) {
    const reply = bfclReplies(size);
    const parsed = kata1.parseToolCalls(reply.text);
    check(parsed.calls.length === reply.calls && parsed.errors.length === 0, `the ${sizeLabel(size)} reply parses to ${reply.calls} calls`);
    const jsonCase: BenchCase = { name: "JSON.parse", bytes: Buffer.byteLength(reply.json), run: () => JSON.parse(reply.json) };
    const [parser, json] = await measureSideBySide([pick(cases, replyCaseName(size)), jsonCase], s);
    replies.push({ bytes: size, calls: reply.calls, parserMs: parser.msPerOp, parserMiBps: parser.mibPerSec!, jsonMs: json.msPerOp, jsonMiBps: json.mibPerSec! });
  }
  const shapes: Kata1Results["adversarial"]["shapes"] = [];
  for (const shape of Object.keys(ADVERSARIAL)) {
    // The sizes of one shape side by side: all warmed up before any is timed.
    const ms = await measureSideBySide(ADVERSARIAL_SIZES.map((size) => pick(cases, adversarialCaseName(shape, size))), s);
    shapes.push({ shape, nsPerByte: ms.map((m, i) => (m.msPerOp * 1e6) / ADVERSARIAL_SIZES[i]), largestMs: ms.at(-1)!.msPerOp });
  }
  const before = await kata1BeforeRewrite(quick ? { ...COMPARE_SPEED, budgetMs: 120, rounds: 6 } : COMPARE_SPEED);
  return { run, replies, adversarial: { sizes: ADVERSARIAL_SIZES, shapes }, before };
}

// --- kata 2 ------------------------------------------------------------------------------------

/** RFC 3339 full-date, as the kata's `format: "date"` checks it (Ajv has no formats built in). */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = mo === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days;
}

async function benchKata2(s: Settings, run: Run): Promise<Omit<Kata2Results, "load">> {
  const cases = kata2Cases(kata2);
  const corpus = bfclCorpus();

  // Peers compile each distinct schema once, up front, as a runtime does per tool.
  const all = [...corpus.valid, ...corpus.mutated];
  const distinct = new Map<string, Validation["schema"]>();
  for (const c of all) distinct.set(JSON.stringify(c.schema), c.schema);
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addFormat("date", isDate);
  let start = performance.now();
  const ajvCompiled = new Map([...distinct].map(([key, schema]) => [key, ajv.compile(schema)]));
  const ajvCompileMs = performance.now() - start;
  start = performance.now();
  const cfwCompiled = new Map([...distinct].map(([key, schema]) => [key, new Validator(schema as object, "2020-12", false)]));
  const cfworkerMs = performance.now() - start;
  const ajvFor = (calls: Validation[]) => calls.map((c) => ajvCompiled.get(JSON.stringify(c.schema))!);
  const cfwFor = (calls: Validation[]) => calls.map((c) => cfwCompiled.get(JSON.stringify(c.schema))!);

  const validation: Kata2Results["validation"] = [];
  const sets = [
    { set: "corpus", name: K2.valid, calls: corpus.valid, tools: corpus.valid.length, repeat: 1 },
    { set: "hot", name: K2.hot, calls: corpus.hot, tools: HOT_TOOLS, repeat: HOT_REPEAT },
    { set: "mutated", name: K2.mutated, calls: corpus.mutated, tools: corpus.mutated.length, repeat: 1 },
  ] as const;
  for (const { set, name, calls, tools, repeat } of sets) {
    const ajvFns = ajvFor(calls);
    const cfws = cfwFor(calls);
    const verdicts = calls.map((c, i) => [kata2.validate(c.schema, c.arguments).valid, ajvFns[i](c.arguments) === true, cfws[i].validate(c.arguments).valid]);
    const agree = verdicts.filter(([a, b, c]) => a === b && b === c).length;
    const invalid = verdicts.filter(([ref]) => !ref).length;
    check(agree === calls.length, `the three validators agree on every ${set} call`);
    if (set === "corpus") check(invalid === Object.keys(KNOWN_BFCL_DEFECTS).length, "only BFCL's known defects are invalid");
    if (set === "mutated") check(invalid === calls.length, "every mutated call is invalid");
    const peer = (peerName: string, validateOne: (i: number) => boolean): BenchCase => ({
      name: peerName,
      bytes: argumentBytes(calls) * repeat,
      items: { count: calls.length * repeat, unit: "call" },
      run: () => {
        let n = 0;
        for (let r = 0; r < repeat; r++) for (let i = 0; i < calls.length; i++) if (!validateOne(i)) n++;
        return n;
      },
    });
    const [ref, a, c] = await measureSideBySide([
      pick(cases, name),
      peer("Ajv", (i) => ajvFns[i](calls[i].arguments) === true),
      peer("@cfworker/json-schema", (i) => cfws[i].validate(calls[i].arguments).valid),
    ], s);
    validation.push({ set, calls: calls.length * repeat, tools, repeat, referenceNs: ref.usPerItem! * 1000, ajvNs: a.usPerItem! * 1000, cfworkerNs: c.usPerItem! * 1000 });
  }

  const rows: Kata2Results["extraction"]["rows"] = [];
  const messages = corpus.messages;
  const calls = messages.reduce((n, m) => n + m.calls, 0);
  const parseAll = (json: string) => {
    const message = JSON.parse(json) as { tool_calls: Array<{ function: { arguments: string } }> };
    return message.tool_calls.map((c) => JSON.parse(c.function.arguments));
  };
  for (const [input, name, baseline] of [
    ["raw", K2.messages, () => messages.map((m) => parseAll(m.text))],
    ["prose", K2.inProse, () => messages.map((m) => parseAll(m.inProse.slice(m.start, m.end)))],
  ] as const) {
    const extract = pick(cases, name);
    const found = messages.reduce((n, m) => n + kata2.extractToolCalls(input === "raw" ? m.text : m.inProse).calls.length, 0);
    check(found === calls, `extraction finds all ${calls} calls in the ${input} messages`);
    const [ref, json] = await measureSideBySide([extract, { name: "JSON.parse", run: baseline, items: extract.items }], s);
    rows.push({ input, referenceUs: ref.usPerItem!, jsonParseUs: json.usPerItem!, mibPerSec: ref.mibPerSec! });
  }
  return { run, distinctSchemas: distinct.size, validation, setup: { ajvCompileMs, cfworkerMs }, extraction: { messages: messages.length, calls, rows } };
}

// --- kata 3 ------------------------------------------------------------------------------------

async function benchKata3(s: Settings, run: Run): Promise<Omit<Kata3Results, "load">> {
  const cases = kata3Cases(kata3);
  const overhead: Kata3Results["overhead"] = [];
  for (const [shape, name, scenario, count, unit] of [
    ["steps", K3.steps, stepByStep(OVERHEAD_STEPS), OVERHEAD_STEPS, "step"],
    ["wide", K3.wide, wideStep(WIDE_CALLS), WIDE_CALLS, "call"],
  ] as const) {
    const result = await kata3.runAgent(scenario());
    check(result.status === "completed" && result.messages.filter((m) => m.role === "tool").length === count, `${name} completes with ${count} tool messages`);
    const bare: BenchCase = { name: "bare loop", items: { count, unit }, clock: "cpu", run: () => bareLoop(scenario()) };
    const [ref, minimal] = await measureSideBySide([pick(cases, name), bare], s);
    overhead.push({ shape, count, referenceUs: ref.usPerItem!, bareUs: minimal.usPerItem! });
  }
  const slowBudget = Math.max(s.budgetMs, 4 * TOOL_MS);
  const concurrency: Kata3Results["concurrency"] = [];
  for (const n of CONCURRENT) {
    const m = await measure(pick(cases, K3.concurrent(n)), slowBudget);
    concurrency.push({ tools: n, limit: n, defaultLimit: false, ms: m.msPerOp });
  }
  const limited = await measure(pick(cases, K3.limited), slowBudget * 2);
  concurrency.push({ tools: LIMITED, limit: 4, defaultLimit: true, ms: limited.msPerOp });
  reportWarnings("kata 3");
  return { run, overhead, toolMs: TOOL_MS, concurrency };
}

// --- kata 4 ------------------------------------------------------------------------------------

/** The sizes of the big argument's linear-time check: those of spec/04-stream-assembly/raw.spec.ts. */
const ARGUMENT_SIZES = [16 << 10, 128 << 10, 1 << 20];
/** bench-cases.ts's options for the big argument, above the default 1 MiB limit. */
const BIG: Parameters<typeof kata4.replay>[0] = { dialect: "chat-completions", limits: { maxArgumentBytes: 4 << 20 } };
/** The chunks a stream's text is pushed in, as bench-cases.ts pushes BFCL's streams. */
const CHUNK = 4 << 10;

/** What a run gives, compared: the text, and each call's id, name and argument text. */
const outcome = (result: ReturnType<typeof kata4.replay>["result"]) =>
  JSON.stringify([result.status, result.text, result.calls.map((c) => [c.id, c.name, c.rawArguments]), result.errors.map((e) => e.code)]);

async function benchKata4(s: Settings, run: Run): Promise<Omit<Kata4Results, "load">> {
  const cases = kata4Cases(kata4);
  const streams: Kata4Results["streams"] = [];
  /** The assembler beside JSON.parse of the arguments it assembles and of the events, each one document. */
  const row = async (input: Kata4Results["streams"][number]["input"], count: number, replay: BenchCase, args: string[], eventsJson: string) => {
    const argumentsJson = `[${args.join(",")}]`;
    const [ref, a, e] = await measureSideBySide([
      replay,
      { name: "JSON.parse of the arguments", run: () => JSON.parse(argumentsJson) },
      { name: "JSON.parse of the events", run: () => JSON.parse(eventsJson) },
    ], s);
    streams.push({
      input, streams: count, bytes: replay.bytes!, calls: args.length, argumentBytes: args.reduce((n, t) => n + Buffer.byteLength(t), 0),
      replayMs: ref.msPerOp, replayMiBps: ref.mibPerSec!, argumentsMs: a.msPerOp, eventsMs: e.msPerOp,
    });
  };

  // The recordings, each as its text in chunks, as a client reads it from the socket.
  const recorded = recordings().map((r) => ({ ...r, chunks: everyN(r.text, CHUNK), events: r.dialect === "ollama" ? parseNdjson(r.text) : parseSse(r.text) }));
  const args: string[] = [];
  for (const r of recorded) {
    const asText = kata4.replay({ dialect: r.dialect }, { text: r.chunks }).result;
    const asEvents = kata4.replay({ dialect: r.dialect }, { events: r.events }).result;
    check(outcome(asText) === outcome(asEvents), `${r.file} gives the same as text and as parsed events`);
    check(asText.status !== "cut" || r.file === CUT_ON_PURPOSE, `${r.file} is read to its end (is ${r.dialect} its dialect?)`);
    args.push(...asText.calls.map((c) => c.rawArguments));
  }
  check(args.length > 0, "the recordings give calls");
  await row("recordings", recorded.length, {
    name: "the recordings", bytes: recorded.reduce((n, r) => n + Buffer.byteLength(r.text), 0),
    run: () => recorded.map((r) => kata4.replay({ dialect: r.dialect }, { text: r.chunks })),
  }, args, JSON.stringify(recorded.map((r) => r.events)));

  // BFCL's calls streamed in four dialects, the 1 MiB stream of each.
  const largest = ARGUMENT_SIZES.at(-1)!;
  for (const dialect of STREAM_DIALECTS) {
    const stream = bfclStream(dialect, largest);
    const { result } = kata4.replay(stream.options, { text: stream.chunks });
    check(result.status === "complete" && result.errors.length === 0 && result.calls.length === stream.calls, `the ${dialect} stream gives its ${stream.calls} calls`);
    check(JSON.stringify(result.calls.map((c) => c.arguments)) === stream.json, `the ${dialect} stream's calls have their arguments`);
    await row(dialect, 1, pick(cases, streamCaseName(dialect, largest)), result.calls.map((c) => c.rawArguments), stream.eventsJson);
  }

  // One big argument in 100-character fragments, at each size: as parsed events, and as server-sent
  // events in 100-character chunks. The largest is bench-cases.ts's case.
  const forms: Kata4Results["argument"]["forms"] = [];
  const events = ARGUMENT_SIZES.map((size) => bigCall(size));
  for (const [form, name, input] of [
    ["events", "a 1 MiB argument in 10,000 fragments, as parsed events", (i: number) => ({ events: events[i] })],
    ["sse", "a 1 MiB argument as server-sent events in 100-character chunks", (i: number) => ({ text: everyN(sse(events[i]), 100) })],
  ] as const) {
    const runs = ARGUMENT_SIZES.map((size, i): BenchCase => {
      const stream = input(i);
      const { result } = kata4.replay(BIG, stream);
      check(result.status === "complete" && result.errors.length === 0 && result.calls.length === 1 && result.calls[0].rawArguments.length === size, `the ${size}-byte argument as ${form} is one call of ${size} bytes`);
      return i === ARGUMENT_SIZES.length - 1 ? pick(cases, name) : { name: `${name}, ${size} bytes`, bytes: size, run: () => kata4.replay(BIG, stream) };
    });
    const argumentJson = kata4.replay(BIG, { events: events.at(-1)! }).result.calls[0].rawArguments;
    const eventsJson = JSON.stringify(events.at(-1));
    // The sizes side by side, with the two parses of the largest: all warmed up before any is timed.
    const ms = await measureSideBySide([
      ...runs,
      { name: "JSON.parse of the argument", run: () => JSON.parse(argumentJson) },
      { name: "JSON.parse of the events", run: () => JSON.parse(eventsJson) },
    ], s);
    const [parseArgument, parseEvents] = ms.splice(ARGUMENT_SIZES.length);
    forms.push({
      form, nsPerByte: ms.map((m, i) => (m.msPerOp * 1e6) / ARGUMENT_SIZES[i]), largestMs: ms.at(-1)!.msPerOp,
      argumentsMs: parseArgument.msPerOp, eventsMs: parseEvents.msPerOp,
    });
  }
  return { run, streams, argument: { sizes: ARGUMENT_SIZES, fragments: events.at(-1)!.length - 2, forms } };
}

// --- the grader --------------------------------------------------------------------------------

interface Timed {
  ms: number;
  /** CPU time of the whole process tree (npm, tsx, vitest and its workers), when known. */
  cpuMs: number | undefined;
  status: number | null;
  output: string;
}

/** A command's wall time, and its CPU time as the machine's busy time over it (see machineBusyMs): run on an otherwise idle machine. */
function timeCommand(args: string[], cwd = PROJECT_ROOT): Timed {
  const cpuBefore = machineBusyMs() ?? childrenCpuMs();
  const start = performance.now();
  const run = spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" }, maxBuffer: 64 << 20 });
  const ms = performance.now() - start;
  const cpuAfter = cpuBefore === undefined ? undefined : (machineBusyMs() ?? childrenCpuMs());
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { ms, cpuMs, status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Rounds of (trivial run, grade, the specs alone, trivial run): each one's cost in trivial runs of the same moment. */
const GRADE_ROUNDS = 3;

async function benchGrader(run: Run): Promise<Omit<GraderResults, "load">> {
  // The unit: a trivial vitest run just before and just after each grade, so that the load of
  // that moment weighs on both; the median round counts.
  const kataIds = listKatas().map((kata) => kata.id);
  const rounds: GraderResults["rounds"] = [];
  const outputs: string[] = [];
  let bareTests = 0;
  for (let round = 0; round < GRADE_ROUNDS; round++) {
    const before = timeTrivialRuns(1);
    const grade = timeCommand(["run", "grade", "--", "--impl", "solutions"]);
    const bare: BareRun = timeBareSpecs(kataIds);
    const after = timeTrivialRuns(1);
    const cpus = [...before.cpuMs, ...after.cpuMs];
    outputs.push(grade.output);
    bareTests = bare.passed;
    rounds.push({
      trivialMs: (before.runsMs[0] + after.runsMs[0]) / 2,
      trivialCpuMs: cpus.includes(undefined) ? null : (cpus[0]! + cpus[1]!) / 2,
      gradeMs: grade.ms, gradeCpuMs: grade.cpuMs ?? null, status: grade.status,
      overall: /^\s*overall\s+(\S+)/m.exec(grade.output)?.[1] ?? "?",
      bareMs: bare.ms, bareCpuMs: bare.cpuMs ?? null,
    });
    console.log(`grade round ${round + 1}: ${duration(grade.ms)} beside ${duration(rounds[round].trivialMs)} for a trivial run; the specs alone ${duration(bare.ms)}`);
  }
  // The per-kata counts of the median round's grade.
  const ratios = rounds.map((r) => r.gradeMs / r.trivialMs);
  const kept = ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]);
  const katas = [...outputs[kept].matchAll(/^\s*(\d\d-[a-z-]+)\s+\S+.*?(\d+\/\d+)\s*$/gm)].map((m) => ({ kata: m[1], passing: m[2] }));
  // The grader's own warnings (a stale spec/manifest.json, specs changed since it was written).
  for (const line of outputs[kept].split("\n").filter((l) => /^\s*!/.test(l))) console.log(`> The grader warned: ${line.trim().replace(/^!\s*/, "")}`);

  const sandbox = benchSandboxCost();
  const watch = await watchLatency(1, "01-regex-dispatch", "parse.ts", WATCH_SAVES);
  return { run, rounds, katas, bareTests, sandbox, watch: { kata: watch.kata, saves: WATCH_SAVES, firstMs: watch.firstMs, fullMs: watch.fullMs } };
}

/** Rounds of the sandboxed grade beside the grade before the sandbox. */
const SANDBOX_ROUNDS = 3;

/**
 * The sandboxed grade of the references beside the grade at BEFORE_SANDBOX. Both grade the three
 * katas that commit has, alternating which goes first in each round, so that the machine's load
 * of the moment weighs on both alike. CPU time is the whole machine's busy time over each command
 * (the grade's own account misses its sandboxes, which are reaped outside its process tree): run
 * this part on an otherwise idle machine.
 */
function benchSandboxCost(): GraderResults["sandbox"] {
  const checkout = checkoutOf(BEFORE_SANDBOX);
  if (typeof checkout === "string") return { commit: BEFORE_SANDBOX, rounds: [], error: checkout };
  const args = ["run", "grade", "--", "--impl", "solutions", "--kata", "1,2,3"];
  const rounds: GraderResults["sandbox"]["rounds"] = [];
  try {
    for (let round = 0; round < SANDBOX_ROUNDS; round++) {
      let now: Timed, before: Timed;
      if (round % 2 === 0) {
        now = timeCommand(args);
        before = timeCommand(args, checkout.dir);
      } else {
        before = timeCommand(args, checkout.dir);
        now = timeCommand(args);
      }
      rounds.push({
        sandboxedMs: now.ms, sandboxedCpuMs: now.cpuMs ?? null, sandboxedStatus: now.status,
        beforeMs: before.ms, beforeCpuMs: before.cpuMs ?? null, beforeStatus: before.status,
      });
      console.log(`sandbox round ${round + 1}: ${duration(now.ms)} sandboxed, ${duration(before.ms)} at ${BEFORE_SANDBOX}`);
    }
  } finally {
    checkout.remove();
  }
  return { commit: BEFORE_SANDBOX, rounds, error: null };
}

// --- main --------------------------------------------------------------------------------------

/** The figures into docs/benchmarks.json (this run's parts replace theirs), then every page's blocks from it. */
function write(parts: BenchResults["parts"]): void {
  const old = existsSync(RESULTS_JSON) ? (JSON.parse(readFileSync(RESULTS_JSON, "utf8")) as BenchResults) : undefined;
  const merged: BenchResults["parts"] = { ...old?.parts, ...parts };
  // In the pages' order, whichever part was measured last.
  const json = toJson({ about: ABOUT, parts: Object.fromEntries(PART_ORDER.filter((p) => merged[p]).map((p) => [p, merged[p]])) });
  // Rendered from what is written, rounding included.
  const results = JSON.parse(json) as BenchResults;
  // Every page is rendered before any is written: a page without its markers changes nothing.
  const pages = PAGES.map(({ path, lang, blocks }) => {
    let text = readFileSync(path, "utf8");
    for (const [name, render] of blocks) text = writeBlock(text, name, render(results, lang), path);
    return { path, text };
  });
  writeFileSync(RESULTS_JSON, json);
  console.log(`Wrote ${RESULTS_JSON}.`);
  for (const { path, text } of pages) {
    writeFileSync(path, text);
    console.log(`Wrote the figures into ${path}.`);
  }
}

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("bench", () => runBench(argv));

async function runBench(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run bench -- [--kata 1,2,3,4,grader] [--quick] [--write | --render]", "The references beside their peers (JSON.parse, Ajv, @cfworker/json-schema, a bare loop, the code they replaced), and the grader's speed.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  if (args.flags.has("render")) {
    if (args.flags.size > 1) throw new UsageError("--render measures nothing: it takes no other option");
    if (!existsSync(RESULTS_JSON)) throw new UsageError(`--render: there is no ${RESULTS_JSON} yet (npm run bench -- --write)`);
    write({});
    return 0;
  }
  const quick = args.flags.has("quick");
  const parts = new Set(((args.flags.get("kata") as string | undefined) ?? (quick ? "1,2,3,4" : "1,2,3,4,grader")).split(",").map((p) => p.trim()));
  for (const part of parts) if (!["1", "2", "3", "4", "grader"].includes(part)) throw new UsageError(`--kata: unknown part "${part}" (known: 1, 2, 3, 4, grader)`);
  const settings: Settings = quick ? { budgetMs: 100, rounds: 3 } : { budgetMs: 400, rounds: 5 };

  const started = performance.now();
  const command = `npm run bench${argv.length > 0 ? ` -- ${argv.filter((a) => a !== "--write" && a !== "--").join(" ")}` : ""}`.replace(/ -- $/, "");
  const run: Run = { command, machine: machine() };
  const results: BenchResults["parts"] = {};
  const show = (text: string) => console.log(`${text}\n`);
  /** A part, with the load average around it (the run's machine has the one at the start). */
  const part = async <T>(measure: () => Promise<Omit<T, "load">>): Promise<T> => {
    const start = loadavg()[0];
    const measured = await measure();
    return { ...measured, load: { start, end: loadavg()[0] } } as T;
  };
  if (parts.has("1")) show(kata1Details((results.kata1 = await part<Kata1Results>(() => benchKata1(settings, run, quick))), en));
  if (parts.has("2")) show(kata2Details((results.kata2 = await part<Kata2Results>(() => benchKata2(settings, run))), en));
  if (parts.has("3")) show(kata3Details((results.kata3 = await part<Kata3Results>(() => benchKata3(settings, run))), en));
  if (parts.has("4")) show(kata4Details((results.kata4 = await part<Kata4Results>(() => benchKata4(settings, run))), en));
  if (parts.has("grader")) show(graderDetails((results.grader = await part<GraderResults>(() => benchGrader(run))), en));
  reportWarnings("the run");
  console.log(`Whole run: ${duration(performance.now() - started)}.\n\n## Summary\n\n${renderSummary({ about: ABOUT, parts: results }, "en")}\n`);
  if (args.flags.has("write")) write(results);
  return 0;
}

if (isEntry(import.meta.url)) {
  countWarnings();
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

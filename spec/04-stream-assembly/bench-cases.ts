// Kata 4's benchmark inputs, for `npm run bench` (the reference beside JSON.parse of the assembled
// arguments) and `npm run compare` (a candidate beside the reference). Not a spec: nothing here is
// graded.
//
//   - real calls: the ground-truth calls of BFCL (spec/data/bfcl) streamed as a server sends them,
//     each call's arguments in 16-character fragments, written as server-sent events and pushed in
//     4 KiB chunks, in four dialects, from 64 KiB to 1 MiB of stream;
//   - one big call: a 1 MiB argument in 10,000 fragments, as parsed events and as server-sent events
//     in 100-character chunks, where an assembly that parses again per fragment is quadratic;
//   - tags: 1 MiB of prose with <tool_call> tags and tag beginnings, in 100-character chunks.
import type { BenchCase } from "../support/bench-case.ts";
import { bfclTurns, type CallSpec } from "./arbitraries.ts";
import { anthropic, chat, chatCall, everyN, gemini, responses, sse } from "./streams.ts";
import type { AssemblerOptions, Dialect } from "../../solutions/04-stream-assembly/index.ts";

type Kata4 = typeof import("../../solutions/04-stream-assembly/index.ts");

const KiB = 1 << 10;
const MiB = 1 << 20;
export const STREAM_SIZES = [64 * KiB, MiB];
export const STREAM_DIALECTS = ["chat-completions", "responses", "anthropic", "gemini"] as const satisfies readonly Dialect[];

/** Fragments of `size` characters. */
const pieces = (text: string, size = 16) => everyN(text, size);

/** The events of one turn that makes `calls` calls, in a dialect. */
function turnEvents(dialect: (typeof STREAM_DIALECTS)[number], calls: CallSpec[]): unknown[] {
  const texts = calls.map((c) => JSON.stringify(c.arguments));
  switch (dialect) {
    case "chat-completions":
      return [chat.text("Sure, one moment."), ...calls.flatMap((c, i) => chatCall(i, `call_${i}`, c.name, pieces(texts[i]))), chat.finish("tool_calls"), "[DONE]"];
    case "responses":
      return [responses.created(), ...calls.flatMap((c, i) => [
        responses.callAdded(`fc_${i}`, `call_${i}`, c.name), ...pieces(texts[i]).map((p) => responses.delta(`fc_${i}`, p)),
        responses.argsDone(`fc_${i}`, texts[i]), responses.itemDone(`fc_${i}`, `call_${i}`, c.name, texts[i]),
      ]), responses.completed()];
    case "anthropic":
      return [anthropic.start(), ...calls.flatMap((c, i) => [anthropic.toolBlock(i, `toolu_${i}`, c.name), ...pieces(texts[i]).map((p) => anthropic.json(i, p)), anthropic.stop(i)]),
        anthropic.messageDelta("tool_use"), anthropic.end()];
    case "gemini":
      return [...calls.map((c) => gemini.chunk([gemini.call(c.name, c.arguments)])), gemini.chunk([{ text: "" }], "STOP")];
  }
}

export interface BfclStream {
  options: AssemblerOptions;
  /** The stream as server-sent events, in 4 KiB chunks. */
  chunks: string[];
  bytes: number;
  calls: number;
  /** Every call's arguments as one JSON document: what JSON.parse reads instead. */
  json: string;
  /** Every event of the stream as one JSON document: the JSON.parse any client of the stream pays. */
  eventsJson: string;
}

let cached: CallSpec[] | undefined;

/** BFCL's calls, as many as fit in `size` characters of stream, in one turn. */
export function bfclStream(dialect: (typeof STREAM_DIALECTS)[number], size: number): BfclStream {
  cached ??= bfclTurns().flat();
  const calls: CallSpec[] = [];
  let events: unknown[] = [];
  let text = "";
  for (let step = 64; ; step *= 2) {
    const next = Array.from({ length: step }, (_, i) => cached![i % cached!.length]);
    const nextEvents = turnEvents(dialect, next);
    const written = sse(nextEvents);
    if (written.length > size && calls.length > 0) break;
    calls.splice(0, calls.length, ...next);
    events = nextEvents;
    text = written;
    if (written.length > size) break;
  }
  return {
    options: { dialect, limits: { maxCalls: calls.length + 1 } },
    chunks: everyN(text, 4 * KiB),
    bytes: Buffer.byteLength(text),
    calls: calls.length,
    json: JSON.stringify(calls.map((c) => c.arguments)),
    eventsJson: JSON.stringify(events),
  };
}

/** One call whose arguments hold `size` bytes, in fragments of 100 characters. */
export function bigCall(size: number): unknown[] {
  const text = JSON.stringify({ text: "x".repeat(size - 11) });
  return [chat.calls({ index: 0, id: "call_big", type: "function", name: "write", arguments: "" }),
    ...pieces(text, 100).map((p) => chat.calls({ index: 0, arguments: p })), chat.finish("tool_calls")];
}

/** Prose with tags and tag beginnings, about `size` characters, as text deltas of 100 characters. */
export function taggedProse(size: number): unknown[] {
  const unit = "Let me check <b>this</b> <tool_ca then <tool_call>{\"name\": \"f\", \"arguments\": {\"q\": \"<x>\"}}</tool_call> ok. ";
  return [...pieces(unit.repeat(Math.floor(size / unit.length)), 100).map((p) => chat.text(p)), chat.finish("stop")];
}

export const streamCaseName = (dialect: string, size: number) => `BFCL calls as ${dialect} server-sent events, ${sizeLabel(size)}`;

export function sizeLabel(size: number): string {
  return size % MiB === 0 ? `${size / MiB} MiB` : `${size / KiB} KiB`;
}

export default function benchCases(impl: Kata4): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const dialect of STREAM_DIALECTS) {
    for (const size of STREAM_SIZES) {
      const stream = bfclStream(dialect, size);
      cases.push({
        name: streamCaseName(dialect, size),
        bytes: stream.bytes,
        items: { count: stream.calls, unit: "call" },
        run: () => impl.replay(stream.options, { text: stream.chunks }),
      });
    }
  }
  const BIG: AssemblerOptions = { dialect: "chat-completions", limits: { maxArgumentBytes: 4 * MiB } };
  const events = bigCall(MiB);
  cases.push({ name: "a 1 MiB argument in 10,000 fragments, as parsed events", bytes: MiB, run: () => impl.replay(BIG, { events }) });
  const raw = sse(events);
  const text = everyN(raw, 100);
  cases.push({ name: "a 1 MiB argument as server-sent events in 100-character chunks", bytes: raw.length, run: () => impl.replay(BIG, { text }) });
  const prose = taggedProse(MiB);
  const TAGS: AssemblerOptions = { dialect: "chat-completions", toolCallTags: true, limits: { maxCalls: 1 << 16 } };
  cases.push({ name: "1 MiB of prose with <tool_call> tags, in 100-character deltas", bytes: MiB, run: () => impl.replay(TAGS, { events: prose }) });
  return cases;
}

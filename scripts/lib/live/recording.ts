// --record FILE and --replay FILE. A recording is JSON Lines, one event per line, appended and
// flushed as it happens (so Ctrl-C, or even a crash, keeps everything up to that moment):
//
//   {"type":"meta", "format":"tool-use-katas/live", "version":1, "kata":3, "model", "baseUrl", "impl", "runId", "apiKeySent", "settings"}
//   {"type":"request", "seq":1, "method":"POST", "url", "body"}           sent to the server
//   {"type":"response", "seq":1, "status":200, "text":"..."}               its reply, byte for byte
//   {"type":"failure", "seq":1, "kind":"timeout", "message"}               or why there was none
//   {"type":"chunk", "seq":1, "text":"data: {..."}                         kata 4: one chunk of a streamed reply,
//   {"type":"chunk", "seq":1, "base64":"..."}                                as text, or as base64 when it is not whole UTF-8
//   {"type":"response", "seq":1, "status":200, "text":"", "stream":true}   the streamed reply's end (after its chunks;
//                                                                           "dropped": why, when it was cut)
//   {"type":"approval", "seq":1, "name", "arguments", "approved":false}    a dangerous tool's answer
//   {"type":"interrupt", "requests":2}                                     Ctrl-C, after that many requests
//   {"type":"end", "status":"completed", "steps":2}
//
// Replay serves the recorded responses (and failures, and approvals) in order, and checks that
// every request is the one recorded: the same implementation replays a conversation exactly. A
// streamed reply is replayed chunk by chunk, the same bytes cut in the same places.
// The API key is never written: it is a header, and headers are not recorded.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { LiveError, type LiveErrorKind } from "./errors.ts";
import { INTERRUPTED_MESSAGE, type HttpRequest, type HttpResponse, type StreamSink, type Transport } from "./transport.ts";

export const RECORDING_FORMAT = "tool-use-katas/live";
export const RECORDING_VERSION = 1;

export interface LiveSettings {
  prompt: string;
  maxSteps: number;
  toolChoice: string;
  /** The --sandbox given, or null for the built-in demo folder. */
  sandbox: string | null;
  temperature: number | null;
  /** Kata 4: how the stream is fed to the assembler (default bytes). */
  feed?: Feed;
  /** Kata 4: the assembler reads `<tool_call>` tags in the text. */
  toolCallTags?: boolean;
}

/** Kata 4: `pushBytes` of each chunk, `pushText` of its decoded text, or `push` of each parsed event. */
export type Feed = "bytes" | "text" | "events";

export interface RecordingMeta {
  type: "meta";
  format: typeof RECORDING_FORMAT;
  version: number;
  kata: 1 | 3 | 4;
  model: string;
  baseUrl: string;
  impl: string;
  runId: string;
  /** Whether an API key was sent (the key itself is never written). */
  apiKeySent?: boolean;
  settings: LiveSettings;
}

export type RecordLine =
  | RecordingMeta
  | ({ type: "request"; seq: number } & HttpRequest)
  | { type: "response"; seq: number; status: number; text: string; stream?: true; dropped?: string }
  | { type: "chunk"; seq: number; text?: string; base64?: string }
  | { type: "failure"; seq: number; kind: LiveErrorKind; message: string }
  | { type: "approval"; seq: number; name: string; arguments: unknown; approved: boolean; interrupted?: boolean }
  | { type: "interrupt"; requests: number }
  | { type: "end"; status: string; steps: number };

export interface Recorder {
  readonly file: string;
  /** Appends one line; once the recording is closed, does nothing. */
  write(line: RecordLine): void;
  /**
   * Ends the recording (after its `end` line): whatever the run still does afterwards (a
   * callback that settles late, a request that fails after the run stopped waiting) is not
   * written, and the file may be moved or deleted.
   */
  close(): void;
  /** Requests written so far. */
  readonly requests: number;
}

export function createRecorder(file: string, meta: RecordingMeta): Recorder {
  // A fresh file per run: a recording is one conversation.
  writeFileSync(file, JSON.stringify(meta) + "\n");
  let requests = 0;
  let closed = false;
  return {
    file,
    write(line) {
      if (closed) return;
      if (line.type === "request") requests++;
      // Synchronous on purpose: the line is on disk before anything else can happen.
      appendFileSync(file, JSON.stringify(line) + "\n");
    },
    close() {
      closed = true;
    },
    get requests() {
      return requests;
    },
  };
}

/** Wraps a transport so that every request and its outcome land in the recording. */
export function recordingTransport(inner: Transport, recorder: Recorder): Transport {
  let seq = 0;
  return async (request, signal, sink) => {
    const n = ++seq;
    recorder.write({ type: "request", seq: n, ...request });
    // Ctrl-C while the request is in flight is written the moment it happens: the run does not
    // wait for the aborted request (kata 3 ends at once), so its own failure may come after the
    // recording is closed. Whatever the request does afterwards is then not written again.
    let settled = false;
    const onAbort = () => {
      settled = true;
      recorder.write({ type: "failure", seq: n, kind: "interrupted", message: INTERRUPTED_MESSAGE });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    // Each chunk of a streamed reply is written before the run sees it. When the run itself
    // fails on a chunk (its assembler threw), the request did not fail: nothing more is written
    // for it, and a replay feeds the same chunks to the same failure.
    let runFailed = false;
    const recordingSink: StreamSink | undefined = sink && {
      async chunk(bytes) {
        // After Ctrl-C the run sees no more of the reply than the recording keeps.
        if (settled) return;
        recorder.write({ type: "chunk", seq: n, ...chunkLine(bytes) });
        try {
          await sink.chunk(bytes);
        } catch (error) {
          runFailed = true;
          throw error;
        }
      },
    };
    try {
      const response = await inner(request, signal, recordingSink);
      if (!settled) {
        recorder.write({
          type: "response",
          seq: n,
          status: response.status,
          text: response.text,
          ...(response.streamed ? { stream: true as const } : {}),
          ...(response.dropped !== undefined ? { dropped: response.dropped } : {}),
        });
      }
      return response;
    } catch (error) {
      const kind: LiveErrorKind = error instanceof LiveError ? error.kind : "unreachable";
      if (!settled && !runFailed) recorder.write({ type: "failure", seq: n, kind, message: (error as Error).message });
      throw error;
    } finally {
      settled = true;
      signal.removeEventListener("abort", onAbort);
    }
  };
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A chunk as the recording keeps it: readable text when its bytes are whole UTF-8, else base64. */
export function chunkLine(bytes: Uint8Array): { text: string } | { base64: string } {
  try {
    return { text: STRICT_UTF8.decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes).toString("base64") };
  }
}

/** The bytes of a recorded chunk. */
export function chunkBytes(line: { text?: unknown; base64?: unknown }): Uint8Array {
  if (typeof line.base64 === "string") return new Uint8Array(Buffer.from(line.base64, "base64"));
  return new TextEncoder().encode(typeof line.text === "string" ? line.text : "");
}

export function recordApprovals(recorder: Recorder): (name: string, args: unknown, approved: boolean, interrupted: boolean) => void {
  let seq = 0;
  return (name, args, approved, interrupted) =>
    recorder.write({ type: "approval", seq: ++seq, name, arguments: args, approved, ...(interrupted ? { interrupted } : {}) });
}

interface Exchange {
  seq: number;
  request: HttpRequest;
  /** The chunks of a streamed reply, in order. */
  chunks: Uint8Array[];
  outcome?: { type: "response"; status: number; text: string; stream?: true; dropped?: string } | { type: "failure"; kind: LiveErrorKind; message: string };
}

export interface Recording {
  file: string;
  meta: RecordingMeta;
  exchanges: Exchange[];
  approvals: Array<{ name: string; arguments: unknown; approved: boolean; interrupted?: boolean }>;
  /** Ctrl-C was pressed after this many requests (none: the run was not interrupted). */
  interruptedAfter?: number;
  end?: { status: string; steps: number };
}

export function readRecording(file: string): Recording {
  if (!existsSync(file)) throw new Error(`--replay: no such file: ${file}`);
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  const parsed: RecordLine[] = lines.map((line, i) => {
    try {
      return JSON.parse(line) as RecordLine;
    } catch {
      // Only the last line may be cut (the run was killed while writing it): drop it.
      if (i === lines.length - 1) return { type: "end", status: "cut", steps: -1 };
      throw new Error(`--replay: line ${i + 1} of ${file} is not JSON`);
    }
  });
  const meta = parsed[0];
  if (!meta || meta.type !== "meta" || meta.format !== RECORDING_FORMAT) {
    throw new Error(`--replay: ${file} is not a live-mode recording (its first line must be {"type":"meta","format":"${RECORDING_FORMAT}",...})`);
  }
  if (meta.version !== RECORDING_VERSION) throw new Error(`--replay: ${file} has format version ${meta.version}; this tool reads version ${RECORDING_VERSION}`);
  const recording: Recording = { file, meta, exchanges: [], approvals: [] };
  for (const line of parsed.slice(1)) {
    if (line.type === "request") {
      const { type: _t, seq, ...request } = line;
      recording.exchanges.push({ seq, request, chunks: [] });
    } else if (line.type === "chunk") {
      const exchange = recording.exchanges.find((e) => e.seq === line.seq);
      if (!exchange) throw new Error(`--replay: ${file} has a chunk for request ${line.seq}, which it never made`);
      exchange.chunks.push(chunkBytes(line));
    } else if (line.type === "response" || line.type === "failure") {
      const exchange = recording.exchanges.find((e) => e.seq === line.seq);
      if (!exchange) throw new Error(`--replay: ${file} has a ${line.type} for request ${line.seq}, which it never made`);
      exchange.outcome =
        line.type === "response"
          ? {
              type: "response",
              status: line.status,
              text: line.text,
              ...(line.stream === true ? { stream: true as const } : {}),
              ...(typeof line.dropped === "string" ? { dropped: line.dropped } : {}),
            }
          : { type: "failure", kind: line.kind, message: line.message };
    } else if (line.type === "approval") {
      recording.approvals.push({ name: line.name, arguments: line.arguments, approved: line.approved, interrupted: line.interrupted === true });
    } else if (line.type === "interrupt") {
      recording.interruptedAfter ??= line.requests;
    } else if (line.type === "end" && line.steps >= 0) {
      recording.end = { status: line.status, steps: line.steps };
    }
  }
  return recording;
}

export interface ReplayOptions {
  /** Serve the recorded replies even when a request differs from the recorded one. */
  loose: boolean;
  warn(text: string): void;
  /** A recorded Ctrl-C: stop the run the way the live one was stopped. */
  interrupt(): void;
}

/** The transport of a replay: answers from the recording, never from the network. */
export function replayTransport(recording: Recording, options: ReplayOptions): { transport: Transport; unused(): number } {
  let next = 0;
  const transport: Transport = async (request, _signal, sink): Promise<HttpResponse> => {
    const exchange = recording.exchanges[next];
    if (!exchange && recording.interruptedAfter === next) {
      // Ctrl-C came between two requests in the recorded run: stop here, as it did.
      await new Promise((resolve) => setImmediate(resolve));
      options.interrupt();
      throw new LiveError("interrupted", "interrupted (as recorded)");
    }
    if (!exchange) {
      throw new LiveError("replay", `the recording has no request ${next + 1}: this run went further than the recorded one (${recording.exchanges.length} requests)`);
    }
    next++;
    // Compare what went over the wire: the request as JSON, as it was recorded.
    const difference = firstDifference(exchange.request, JSON.parse(JSON.stringify(request)), "");
    if (difference) {
      const text = `request ${exchange.seq} differs from the recording at ${difference}`;
      if (!options.loose) {
        throw new LiveError("replay", `${text}. The run left the recorded conversation (another implementation or other settings?); --loose serves the recorded replies anyway.`);
      }
      options.warn(`replay: ${text} (--loose: serving the recorded reply anyway)`);
    }
    // A streamed reply: the same chunks, one at a time, as the network gave them.
    if (exchange.chunks.length > 0) {
      if (!sink) throw new LiveError("replay", `request ${exchange.seq} was answered with a stream, and this run did not ask for one`);
      for (const bytes of exchange.chunks) await sink.chunk(bytes);
    }
    const outcome = exchange.outcome;
    if (!outcome && exchange.chunks.length > 0) {
      throw new LiveError("replay", `the recording stops in the middle of request ${exchange.seq}'s streamed reply (the recorded run stopped reading it there)`);
    }
    if (!outcome) throw new LiveError("replay", `the recording stops while request ${exchange.seq} waited for its reply (the recorded run was killed there)`);
    if (outcome.type === "response") {
      if (outcome.stream !== true) return { status: outcome.status, text: outcome.text };
      if (!sink) throw new LiveError("replay", `request ${exchange.seq} was answered with a stream, and this run did not ask for one`);
      return { status: outcome.status, text: "", streamed: true, ...(outcome.dropped !== undefined ? { dropped: outcome.dropped } : {}) };
    }
    if (outcome.kind === "interrupted") {
      // Live, Ctrl-C lands while the request is in flight: let the caller start waiting first.
      await new Promise((resolve) => setImmediate(resolve));
      options.interrupt();
    }
    throw new LiveError(outcome.kind, outcome.message);
  };
  return { transport, unused: () => recording.exchanges.length - next };
}

/** The recorded approval answers, in order, in place of the terminal prompt. */
export function replayApprovals(recording: Recording, options: ReplayOptions): (name: string, args: unknown) => boolean {
  let next = 0;
  return (name, args) => {
    const recorded = recording.approvals[next++];
    if (!recorded) {
      if (!options.loose) throw new LiveError("replay", `the recording has no answer for approval ${next} (${name}): this run asked more than the recorded one`);
      options.warn(`replay: no recorded answer for approval ${next} (${name}): denied`);
      return false;
    }
    const difference = recorded.name !== name ? `the tool name (recorded ${recorded.name}, now ${name})` : firstDifference(recorded.arguments, JSON.parse(JSON.stringify(args ?? null)), "arguments");
    if (difference) {
      if (!options.loose) throw new LiveError("replay", `approval ${next} differs from the recording at ${difference}`);
      options.warn(`replay: approval ${next} differs at ${difference} (--loose: using the recorded answer)`);
    }
    // Ctrl-C at the question: the recorded run stopped there, and so does this one.
    if (recorded.interrupted) options.interrupt();
    return recorded.approved;
  };
}

/** Where two JSON values first differ, as a readable path with both values; undefined if equal. */
export function firstDifference(recorded: unknown, actual: unknown, path: string): string | undefined {
  const show = (v: unknown) => {
    const text = v === undefined ? "nothing" : JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  };
  const here = path === "" ? "the top" : path;
  if (Object.is(recorded, actual)) return undefined;
  if (Array.isArray(recorded) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) {
      const d = firstDifference(recorded[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (recorded && actual && typeof recorded === "object" && typeof actual === "object" && !Array.isArray(recorded) && !Array.isArray(actual)) {
    const a = recorded as Record<string, unknown>;
    const b = actual as Record<string, unknown>;
    // Keys whose value is undefined are not in the JSON: compare what the wire carries.
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== undefined || b[k] !== undefined).sort();
    for (const key of keys) {
      const d = firstDifference(a[key], b[key], path === "" ? key : `${path}.${key}`);
      if (d) return d;
    }
    return undefined;
  }
  return `${here}: recorded ${show(recorded)}, now ${show(actual)}`;
}

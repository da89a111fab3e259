// npm run live: runs kata 3, kata 1 or kata 4 against a real OpenAI-compatible model server, or
// replays a recorded conversation offline. `main(argv, io)` is the whole command; scripts/live.ts only
// connects it to the process (stdout, stderr, the terminal, Ctrl-C, the exit code).
import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs, usage, UsageError, integerFlag, type FlagSpec, type ParsedArgs } from "../cli-args.ts";
import { createChatClient, normaliseBaseUrl } from "./client.ts";
import { DEFAULT_PROMPT, type RunContext, type RunOutcome } from "./context.ts";
import { LiveError } from "./errors.ts";
import { runKata1 } from "./kata1.ts";
import { runKata3 } from "./kata3.ts";
import { runKata4 } from "./kata4.ts";
import { KATA_FOLDERS, loadKata } from "./load-impl.ts";
import {
  createRecorder,
  readRecording,
  recordApprovals,
  recordingTransport,
  replayApprovals,
  replayTransport,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type Feed,
  type LiveSettings,
  type Recorder,
  type Recording,
  type RecordingMeta,
} from "./recording.ts";
import { DEFAULT_SANDBOX } from "./tools.ts";
import { fetchTransport, type Transport } from "./transport.ts";

export interface LiveIO {
  /** Writes one transcript line (stdout). */
  out(line: string): void;
  /** Writes a piece of the transcript without a line end (stdout): kata 4's text as it streams. Absent: whole lines only. */
  write?: (text: string) => void;
  /** Writes one line for the person at the terminal: status, prompts' notes, errors (stderr). */
  err(line: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Asks a question on the terminal; absent when nobody can answer (stdin is not a TTY). */
  ask?: (question: string, signal: AbortSignal) => Promise<string>;
  /** Fires on Ctrl-C: the run stops cleanly and the recording keeps what it has. */
  interrupt?: AbortSignal;
  /** For tests: the fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export const FLAGS: Record<string, FlagSpec> = {
  kata: { value: true, valueName: "3|1|4", description: "3: your agent loop with native tool calls; 1: the text protocol; 4: your stream assembler" },
  "base-url": { value: true, valueName: "URL", description: "the OpenAI-compatible API root, e.g. http://127.0.0.1:11434/v1" },
  model: { value: true, valueName: "NAME", description: "the model, e.g. qwen2.5:7b" },
  impl: { value: true, valueName: "DIR", description: "whose code runs: katas (default), solutions, or another checkout" },
  "api-key": { value: true, valueName: "KEY", description: "sent as a Bearer token (default: $OPENAI_API_KEY)" },
  prompt: { value: true, valueName: "TEXT", description: "the user's message (default: weather + arithmetic + a file)" },
  yes: { value: false, description: "approve every dangerous tool call without asking" },
  record: { value: true, valueName: "FILE", description: "save every request, reply and approval as JSON Lines" },
  replay: { value: true, valueName: "FILE", description: "run a recorded conversation again, offline" },
  loose: { value: false, description: "with --replay: serve the recorded replies even when requests differ" },
  timeout: { value: true, valueName: "SECONDS", description: "wait at most this long for each reply (default 120; kata 4: also between two chunks)" },
  "max-steps": { value: true, valueName: "N", description: "ask the model at most N times (default 8)" },
  "tool-choice": { value: true, valueName: "CHOICE", description: "kata 3 and 4: auto (default), none, required or a tool name" },
  feed: { value: true, valueName: "F", description: "kata 4: bytes (default): each chunk to pushBytes; text: its text to pushText; events: each parsed event to push" },
  "tool-call-tags": { value: false, description: "kata 4: the assembler also reads <tool_call> tags in the text (toolCallTags)" },
  temperature: { value: true, valueName: "T", description: "sampling temperature (default: the server's)" },
  sandbox: { value: true, valueName: "DIR", description: "the folder read_file serves, read-only (default: a demo folder)" },
  timings: { value: false, description: "also print durations and clock times in the trace" },
};

const SUMMARY =
  "Runs kata 3 (your agent loop, native tool calls), kata 1 (your text-protocol parser and dispatcher)\n" +
  "or kata 4 (your stream assembler, fed the server's streamed reply as it arrives) against a real\n" +
  "OpenAI-compatible model server (Ollama, llama.cpp, vLLM, LM Studio, a hosted API), or replays a\n" +
  "recorded conversation offline. Docs: docs/live-mode.md";
const COMMAND = "npm run live -- --kata 3|1|4 --base-url URL --model NAME [options]\n       npm run live -- --replay FILE [--impl DIR] [--loose] [--feed bytes|text|events]";

export function helpText(): string {
  return usage(COMMAND, SUMMARY, FLAGS);
}

function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === "string" ? value : undefined;
}

function numberFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, got ${raw}`);
  }
  return value;
}

function kataFlag(raw: string): 1 | 3 | 4 {
  const n = raw.trim().replace(/^0/, "");
  if (n === "1" || raw === KATA_FOLDERS[1]) return 1;
  if (n === "3" || raw === KATA_FOLDERS[3]) return 3;
  if (n === "4" || raw === KATA_FOLDERS[4]) return 4;
  if (n === "2" || raw.startsWith("02")) {
    throw new UsageError("live mode runs kata 1 (text protocol), kata 3 (agent loop) or kata 4 (stream assembly); kata 2 is a validator with nothing to drive: use --kata 3");
  }
  throw new UsageError(`--kata must be 1, 3 or 4, got ${raw}`);
}

function feedFlag(args: ParsedArgs): Feed | undefined {
  const raw = stringFlag(args, "feed");
  if (raw === undefined) return undefined;
  if (raw === "bytes" || raw === "text" || raw === "events") return raw;
  throw new UsageError(`--feed must be bytes, text or events, got ${raw}`);
}

interface Plan {
  kata: 1 | 3 | 4;
  model: string;
  baseUrl: string;
  impl: string;
  settings: LiveSettings;
  runId: string;
  recording?: Recording;
}

/** Turns the flags (and, for --replay, the recording) into what to run. */
function plan(args: ParsedArgs, io: LiveIO): Plan {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const replayFile = stringFlag(args, "replay");
  if (args.flags.has("loose") && !replayFile) throw new UsageError("--loose only makes sense with --replay FILE");
  const maxSteps = integerFlag(args, "max-steps", 1, 100);
  const temperature = numberFlag(args, "temperature", 0, 2);
  const sandboxFlag = stringFlag(args, "sandbox");
  const toolChoice = stringFlag(args, "tool-choice");
  if (toolChoice !== undefined && !/^(auto|none|required|[A-Za-z_][\w.-]*)$/.test(toolChoice)) {
    throw new UsageError(`--tool-choice must be auto, none, required or a tool name, got ${toolChoice}`);
  }
  const feed = feedFlag(args);
  const tags = args.flags.has("tool-call-tags");
  const kata4Only = (kata: number) => {
    if (kata === 4) return;
    if (feed !== undefined) throw new UsageError("--feed is for kata 4: it says how the stream is fed to the assembler");
    if (tags) throw new UsageError("--tool-call-tags is for kata 4: it is an option of the assembler");
  };

  if (replayFile) {
    let recording: Recording;
    try {
      recording = readRecording(resolve(io.cwd, replayFile));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const meta = recording.meta;
    // The conversation is fixed by the recording: flags may only repeat it, never change it.
    const kataGiven = stringFlag(args, "kata");
    if (kataGiven !== undefined && kataFlag(kataGiven) !== meta.kata) throw new UsageError(`--replay: ${replayFile} is a recording of kata ${meta.kata}, not kata ${kataGiven}`);
    const modelGiven = stringFlag(args, "model");
    if (modelGiven !== undefined && modelGiven !== meta.model) throw new UsageError(`--replay: ${replayFile} was recorded with model ${meta.model}, not ${modelGiven}`);
    for (const name of ["base-url", "api-key", "prompt", "max-steps", "tool-choice", "temperature", "sandbox", "yes", "timeout"]) {
      if (args.flags.has(name)) throw new UsageError(`--${name} cannot be combined with --replay: the recording fixes it (${replayFile})`);
    }
    // Kata 4: the recorded bytes may be fed another way, or read for tags too.
    kata4Only(meta.kata);
    const settings: LiveSettings =
      meta.kata === 4 ? { ...meta.settings, feed: feed ?? meta.settings.feed ?? "bytes", toolCallTags: tags || meta.settings.toolCallTags === true } : meta.settings;
    return {
      kata: meta.kata,
      model: meta.model,
      baseUrl: meta.baseUrl,
      impl: stringFlag(args, "impl") ?? meta.impl,
      settings,
      runId: meta.runId,
      recording,
    };
  }

  const kataRaw = stringFlag(args, "kata");
  const baseRaw = stringFlag(args, "base-url");
  const model = stringFlag(args, "model");
  const missing = [kataRaw === undefined && "--kata 3|1|4", baseRaw === undefined && "--base-url URL", model === undefined && "--model NAME"].filter(Boolean);
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.join(", ")} (for example: npm run live -- --kata 3 --base-url http://127.0.0.1:11434/v1 --model qwen2.5:7b)`);
  }
  const kata = kataFlag(kataRaw!);
  if (kata === 1 && toolChoice !== undefined) throw new UsageError("--tool-choice is for kata 3 and 4: kata 1 sends no tools to the server");
  kata4Only(kata);
  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(baseRaw!);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (model!.trim() === "") throw new UsageError("--model must not be empty");
  if (sandboxFlag !== undefined) {
    const dir = resolve(io.cwd, sandboxFlag);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--sandbox: no such folder: ${sandboxFlag}`);
  }
  const prompt = stringFlag(args, "prompt") ?? DEFAULT_PROMPT;
  if (prompt.trim() === "") throw new UsageError("--prompt must not be empty");
  return {
    kata,
    model: model!,
    baseUrl,
    impl: stringFlag(args, "impl") ?? "katas",
    settings: {
      prompt,
      maxSteps: maxSteps ?? 8,
      toolChoice: toolChoice ?? "auto",
      sandbox: sandboxFlag === undefined ? null : resolve(io.cwd, sandboxFlag),
      temperature: temperature ?? null,
      ...(kata === 4 ? { feed: feed ?? "bytes", toolCallTags: tags } : {}),
    },
    runId: `run_${randomUUID()}`,
  };
}

export async function main(argv: readonly string[], io: LiveIO): Promise<number> {
  let recorder: Recorder | undefined;
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new LiveError("interrupted", "interrupted"));
  // A real Ctrl-C is written to the recording at once, so that a replay stops where this run did.
  const onCtrlC = () => {
    if (!stop.signal.aborted) recorder?.write({ type: "interrupt", requests: recorder.requests });
    onInterrupt();
  };
  if (io.interrupt?.aborted) onCtrlC();
  else io.interrupt?.addEventListener("abort", onCtrlC, { once: true });
  const keptNote = () => {
    if (recorder) io.err(`Recorded ${recorder.requests} request(s) to ${recorder.file}; replay with: npm run live -- --replay ${recorder.file}`);
  };

  try {
    if (argv.includes("--help") || argv.includes("-h")) {
      io.out(helpText());
      return EXIT.ok;
    }
    const args = parseArgs(argv, FLAGS);
    const p = plan(args, io);
    const timeoutSeconds = numberFlag(args, "timeout", 0.001, 86_400) ?? 120;
    let loaded;
    try {
      loaded = p.kata === 1 ? await loadKata(1, p.impl, io.cwd) : p.kata === 3 ? await loadKata(3, p.impl, io.cwd) : await loadKata(4, p.impl, io.cwd);
    } catch (error) {
      if (error instanceof LiveError) throw error;
      throw new UsageError((error as Error).message); // --impl folder not found
    }

    // The transport: the network, or the recording; and, with --record, a copy of everything.
    let transport: Transport;
    let unused = () => 0;
    let replayedApproval: ((name: string, args: unknown) => boolean) | undefined;
    if (p.recording) {
      const replay = replayTransport(p.recording, { loose: args.flags.has("loose"), warn: io.err, interrupt: onInterrupt });
      transport = replay.transport;
      unused = replay.unused;
      replayedApproval = replayApprovals(p.recording, { loose: args.flags.has("loose"), warn: io.err, interrupt: onInterrupt });
      io.err(`Replaying ${p.recording.file} (kata ${p.kata}, model ${p.model}, recorded against ${p.baseUrl}) with ${loaded.label}: offline, no request leaves this machine.`);
    } else {
      const apiKey = stringFlag(args, "api-key") ?? io.env.OPENAI_API_KEY;
      transport = fetchTransport({ apiKey: apiKey || undefined, timeoutMs: timeoutSeconds * 1000, fetch: io.fetch });
      io.err(`Live: kata ${p.kata} (${loaded.label}) with model ${p.model} at ${p.baseUrl}. Ctrl-C stops.`);
    }
    // Whether a key was sent (never the key): a replayed 401 must explain itself as the live one did.
    const hasApiKey = p.recording ? p.recording.meta.apiKeySent === true : Boolean(stringFlag(args, "api-key") ?? io.env.OPENAI_API_KEY);
    const recordFile = stringFlag(args, "record");
    if (recordFile && p.recording && resolve(io.cwd, recordFile) === p.recording.file) {
      throw new UsageError("--record must name another file than --replay (it would overwrite the recording)");
    }
    let noteApproval: ((name: string, args: unknown, approved: boolean, interrupted: boolean) => void) | undefined;
    if (recordFile) {
      const meta: RecordingMeta = {
        type: "meta",
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        kata: p.kata,
        model: p.model,
        baseUrl: p.baseUrl,
        impl: p.impl,
        runId: p.runId,
        apiKeySent: hasApiKey,
        settings: p.settings,
      };
      recorder = createRecorder(resolve(io.cwd, recordFile), meta);
      transport = recordingTransport(transport, recorder);
      noteApproval = recordApprovals(recorder);
    }
    const client = createChatClient(transport, p.baseUrl, p.model, hasApiKey);
    const yes = args.flags.has("yes");

    // The answer to a dangerous call is recorded and printed exactly once, the moment it is known.
    // Ctrl-C while the question is open is such a moment: kata 3 ends the call as `aborted` at once,
    // without waiting for the question to settle, and the run may be over (its recording closed)
    // before it does. So the interruption is noted and printed synchronously, from the stop
    // signal's abort, and the question settling later changes nothing.
    const approve = (name: string, callArgs: unknown, shown: string): Promise<boolean> =>
      new Promise<boolean>((resolveAnswer, rejectAnswer) => {
        let answered = false;
        const answer = (approved: boolean, interrupted: boolean) => {
          if (answered) return;
          answered = true;
          stop.signal.removeEventListener("abort", onStop);
          noteApproval?.(name, callArgs, approved, interrupted);
          io.out(`[approval] ${shown}: ${approved ? "approved" : interrupted ? "denied (interrupted)" : "denied"}`);
          resolveAnswer(approved);
        };
        const fail = (error: unknown) => {
          if (answered) return;
          answered = true;
          stop.signal.removeEventListener("abort", onStop);
          rejectAnswer(error);
        };
        // Asked while the run was going, stopped by Ctrl-C before the answer: not approved, and
        // the recording says so, for the replay to stop at this question too.
        const onStop = () => answer(false, true);
        if (stop.signal.aborted) return answer(false, false); // asked after the stop: nobody is asked
        stop.signal.addEventListener("abort", onStop, { once: true });
        try {
          if (replayedApproval) {
            // A recorded Ctrl-C at this question aborts the stop signal in here, which answers.
            const approved = replayedApproval(name, callArgs);
            return answer(approved, false);
          }
          if (yes) return answer(true, false);
          if (!io.ask) {
            io.err(`Denied ${name}: nobody can answer on this terminal (stdin is not a TTY); pass --yes to approve dangerous tools.`);
            return answer(false, false);
          }
          io.ask(`Allow the dangerous tool call ${shown}? [y/N] `, stop.signal).then(
            (text) => answer(/^\s*y(es)?\s*$/i.test(text), false),
            () => answer(false, false), // the question failed (or was cut off by the stop, answered already)
          );
        } catch (error) {
          fail(error);
        }
      });

    const ctx: RunContext = {
      client,
      settings: p.settings,
      sandbox: p.settings.sandbox ?? DEFAULT_SANDBOX,
      runId: p.runId,
      signal: stop.signal,
      approve,
      out: io.out,
      write: io.write,
      note: io.err,
      timings: args.flags.has("timings"),
    };
    let outcome: RunOutcome;
    try {
      outcome =
        p.kata === 1 ? await runKata1(loaded.module as never, loaded.label, ctx)
        : p.kata === 3 ? await runKata3(loaded.module as never, loaded.label, ctx)
        : await runKata4(loaded.module as never, loaded.label, ctx);
    } catch (error) {
      // A request cut short by Ctrl-C is a stop, not a failure.
      if (stop.signal.aborted) outcome = { status: "aborted", steps: 0, usage: { input_tokens: 0, output_tokens: 0 } };
      else throw error;
    }
    recorder?.write({ type: "end", status: outcome.status, steps: outcome.steps });
    recorder?.close();
    if (p.recording && unused() > 0) io.err(`Note: ${unused()} recorded request(s) were not needed by this run.`);
    keptNote();
    if (stop.signal.aborted) {
      io.err("Interrupted: stopped cleanly.");
      return EXIT.interrupted;
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`live: ${error.message}\nRun npm run live -- --help for the options.`);
      return EXIT.usage;
    }
    const interrupted = stop.signal.aborted || (error instanceof LiveError && error.kind === "interrupted");
    recorder?.write({ type: "end", status: interrupted ? "aborted" : "failed", steps: 0 });
    recorder?.close();
    keptNote();
    if (interrupted) {
      io.err("Interrupted: stopped cleanly.");
      return EXIT.interrupted;
    }
    if (error instanceof LiveError) {
      io.err(`live: ${error.message}`);
      return EXIT.failed;
    }
    io.err(`live: internal error: ${(error as Error)?.stack ?? String(error)}`);
    return EXIT.failed;
  } finally {
    recorder?.close();
    io.interrupt?.removeEventListener("abort", onCtrlC);
  }
}

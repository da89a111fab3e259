// The assembler: one stream, one dialect, pushed piece by piece (README, "The public API").
//
// A stream is read in one of three forms, chosen by the first push: parsed events, raw text or
// raw bytes. Text goes through the framing (server-sent events, or NDJSON for Ollama) to become
// events; bytes are decoded first, with a decoder that keeps a character cut across two chunks.
// From there every form meets the same reader, so the rules hold whatever the form.
import { anthropicReader } from "./anthropic.ts";
import { chatReader } from "./chat.ts";
import type { EventReader } from "./fields.ts";
import { ndjsonFramer, sseFramer, type Framer } from "./framing.ts";
import { geminiReader } from "./gemini.ts";
import { ollamaReader } from "./ollama.ts";
import { responsesReader } from "./responses.ts";
import { Turn } from "./turn.ts";
import {
  DEFAULT_LIMITS, StreamUsageError, type Assembler, type AssemblerOptions, type Dialect, type Limits,
  type Replay, type StreamInput,
} from "./types.ts";

const READERS: Record<Dialect, (turn: Turn) => EventReader> = {
  "chat-completions": chatReader,
  responses: responsesReader,
  anthropic: anthropicReader,
  gemini: geminiReader,
  ollama: ollamaReader,
};

function limitsOf(options: AssemblerOptions): Limits {
  const given = typeof options.limits === "object" && options.limits !== null ? options.limits : {};
  // Only a limit left out or undefined takes its default: null is not a limit, and throws below.
  const limits = {
    maxCalls: given.maxCalls === undefined ? DEFAULT_LIMITS.maxCalls : given.maxCalls,
    maxArgumentBytes: given.maxArgumentBytes === undefined ? DEFAULT_LIMITS.maxArgumentBytes : given.maxArgumentBytes,
  };
  for (const key of ["maxCalls", "maxArgumentBytes"] as const) {
    const value = limits[key];
    if (!Number.isInteger(value) || value < 1) throw new StreamUsageError(`limits.${key} must be a whole number of 1 or more`);
  }
  return limits;
}

export function createAssembler(options: AssemblerOptions): Assembler {
  if (typeof options !== "object" || options === null || !Object.hasOwn(READERS, options.dialect)) {
    throw new StreamUsageError("options.dialect must be one of: " + Object.keys(READERS).join(", "));
  }
  if (options.toolCallTags !== undefined && typeof options.toolCallTags !== "boolean") {
    throw new StreamUsageError("options.toolCallTags must be a boolean");
  }
  const turn = new Turn(limitsOf(options), options.toolCallTags === true);
  const read = READERS[options.dialect](turn);
  const framer: Framer = (options.dialect === "ollama" ? ndjsonFramer : sseFramer)({
    event: read,
    serverError: (message) => turn.serverError(message),
    unreadable: (message) => turn.unreadable("bad_event", message),
  });
  let form: "events" | "text" | "bytes" | null = null;
  let decoder: InstanceType<typeof TextDecoder> | null = null;
  let closed = false;

  const use = (wanted: "events" | "text" | "bytes") => {
    if (closed) throw new StreamUsageError("the stream has ended: nothing can be pushed after end()");
    if (form !== null && form !== wanted) throw new StreamUsageError(`this stream is read as ${form}: it cannot take ${wanted} too`);
    form = wanted;
  };

  return {
    push(event) {
      use("events");
      return turn.step(() => read(event));
    },
    pushText(chunk) {
      if (typeof chunk !== "string") throw new StreamUsageError("pushText takes a string");
      use("text");
      return turn.step(() => framer.feed(chunk));
    },
    pushBytes(chunk) {
      if (!(chunk instanceof Uint8Array)) throw new StreamUsageError("pushBytes takes a Uint8Array");
      use("bytes");
      // ignoreBOM keeps a byte order mark in the text, where the framing drops exactly one.
      decoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
      const text = decoder.decode(chunk, { stream: true });
      return turn.step(() => framer.feed(text));
    },
    end() {
      if (closed) throw new StreamUsageError("end() was already called");
      closed = true;
      return turn.step(() => {
        if (decoder) framer.feed(decoder.decode());
        if (form === "text" || form === "bytes") framer.end();
        turn.close();
      });
    },
    result: () => turn.result(),
  };
}

/** A whole stream at once: create, push every piece, end. */
export function replay(options: AssemblerOptions, input: StreamInput): Replay {
  const assembler = createAssembler(options);
  const given = typeof input === "object" && input !== null ? input as Partial<Record<"events" | "text" | "bytes", unknown>> : {};
  const forms = (["events", "text", "bytes"] as const).filter((form) => given[form] !== undefined);
  if (forms.length !== 1 || !Array.isArray(given[forms[0]])) {
    throw new StreamUsageError("the input must have exactly one of events, text or bytes, an array");
  }
  const pieces = given[forms[0]] as readonly unknown[];
  const push = forms[0] === "events" ? (piece: unknown) => assembler.push(piece)
    : forms[0] === "text" ? (piece: unknown) => assembler.pushText(piece as string)
    : (piece: unknown) => assembler.pushBytes(piece as Uint8Array);
  const steps = pieces.map(push);
  const end = assembler.end();
  return { steps, end, result: assembler.result() };
}

// The assembler: one stream, one dialect, pushed piece by piece (README, "The public API").
import type { Assembler, AssemblerOptions, Replay, StreamInput } from "./types.ts";

/**
 * TODO: check the options (StreamUsageError for a bad dialect, toolCallTags or limit), then
 * return an assembler for one stream. The first push chooses the form it reads: parsed events
 * (`push`), raw text (`pushText`) or raw bytes (`pushBytes`); raw text goes through the framing of
 * task 5 (server-sent events, NDJSON for Ollama) to become the same events `push` takes. Each push
 * returns what it released. `end()` reads what is pending and ends the stream; a push after it,
 * or a second `end()`, is a StreamUsageError. `result()` works at any time.
 */
export function createAssembler(options: AssemblerOptions): Assembler {
  throw new Error("not implemented");
}

/**
 * TODO: the whole stream at once: createAssembler(options), one push per piece of `input`
 * (exactly one of events, text or bytes, an array: else StreamUsageError), then end().
 */
export function replay(options: AssemblerOptions, input: StreamInput): Replay {
  throw new Error("not implemented");
}

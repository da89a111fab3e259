// Kata 4, stream assembly: the public API. Everything a spec (or a caller) may use is here.
export type {
  Dialect, Limits, AssemblerOptions, ToolCall, ErrorCode, StreamError, Update, StreamStatus, StreamResult,
  Assembler, StreamInput, Replay,
} from "./types.ts";
export { DEFAULT_LIMITS, StreamUsageError } from "./types.ts";
export { createAssembler, replay } from "./assembler.ts";

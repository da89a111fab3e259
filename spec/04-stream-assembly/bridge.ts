// Kata 4 as the specs see it in a graded run: the same public API as the stub, each function a
// call into the kata's sandbox process (spec/support/sandbox/). An assembler crosses as a handle
// whose methods (push, pushText, pushBytes, end, result) run in the sandbox, on the kata's own
// object. StreamUsageError is the specs' own copy of the contract's class.
import type * as Kata from "../../katas/04-stream-assembly/index.ts";
import { loadKata } from "../support/sandbox/bridge.ts";

export type {
  Dialect, Limits, AssemblerOptions, ToolCall, ErrorCode, StreamError, Update, StreamStatus, StreamResult,
  Assembler, StreamInput, Replay,
} from "../../katas/04-stream-assembly/index.ts";

/** Thrown for a wrong use of the API (bad options, a push after end...), never for a bad stream. */
export class StreamUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StreamUsageError";
  }
}

const kata = await loadKata("04-stream-assembly", { classes: { StreamUsageError }, methods: ["push", "pushText", "pushBytes", "end", "result"] });

export const createAssembler = kata.export<typeof Kata.createAssembler>("createAssembler");
export const replay = kata.export<typeof Kata.replay>("replay");
export const DEFAULT_LIMITS = kata.export<typeof Kata.DEFAULT_LIMITS>("DEFAULT_LIMITS");

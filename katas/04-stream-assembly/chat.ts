// Chat-completions chunks (README, tasks 1 and 2): choices[0].delta with text and tool-call fragments keyed by index and id; finish_reason or [DONE] ends the stream.
// (Not part of the public API: a suggested place.)
import type { EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

/** TODO: a reader of this dialect's events that tells `turn` what each one means. */
export function chatReader(turn: Turn): EventReader {
  throw new Error("not implemented");
}

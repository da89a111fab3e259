// The Responses API's events (README, task 4): output_item.added starts a call (name, call_id), deltas name its item id, the first .done ends it.
// (Not part of the public API: a suggested place.)
import type { EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

/** TODO: a reader of this dialect's events that tells `turn` what each one means. */
export function responsesReader(turn: Turn): EventReader {
  throw new Error("not implemented");
}

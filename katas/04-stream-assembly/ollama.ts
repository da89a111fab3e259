// Ollama's native chat stream (README, task 4): message.content is text, each message.tool_calls entry a whole call; done: true ends the stream.
// (Not part of the public API: a suggested place.)
import type { EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

/** TODO: a reader of this dialect's events that tells `turn` what each one means. */
export function ollamaReader(turn: Turn): EventReader {
  throw new Error("not implemented");
}

// Anthropic's content blocks (README, task 4): each block keeps its own index and its own arguments; content_block_stop ends a tool_use block's call; message_stop ends the stream.
// (Not part of the public API: a suggested place.)
import type { EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

/** TODO: a reader of this dialect's events that tells `turn` what each one means. */
export function anthropicReader(turn: Turn): EventReader {
  throw new Error("not implemented");
}

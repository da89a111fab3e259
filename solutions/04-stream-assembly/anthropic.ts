// Anthropic's content blocks (README, task 4). Each block, text or tool_use, has its own index,
// counted over all the blocks of the message (a tool block after a text block has index 1); its
// deltas and its stop name that index. A tool_use block is one call: content_block_stop ends it.
// `input: {}` in content_block_start is a placeholder: the arguments are the input_json_delta
// pieces, and `input` counts only when no piece came.
import { isIndex, isObject, stringField, WRONG, type EventReader } from "./fields.ts";
import type { Call, Turn } from "./turn.ts";

/** Stop reasons that say the output was cut short. */
const CUT_SHORT = new Set(["max_tokens", "model_context_window_exceeded", "refusal"]);

interface Block {
  /** The call of a tool_use block; null for text and for every other kind of block. */
  call: Call | null;
  text: boolean;
  stopped: boolean;
}

export function anthropicReader(turn: Turn): EventReader {
  // One entry per block index: each block keeps its own arguments.
  const blocks = new Map<number, Block>();

  /** The block an event names, or undefined after reporting why there is none. */
  const blockOf = (event: Record<string, unknown>): Block | undefined => {
    if (!isIndex(event.index)) {
      turn.unreadable("bad_index", "a block index is not an integer of 0 or more");
      return undefined;
    }
    const block = blocks.get(event.index);
    if (block === undefined || block.stopped) {
      turn.streamError("out_of_order", block ? "an event for a block that has stopped" : "an event for a block that has not started");
      return undefined;
    }
    return block;
  };

  const start = (event: Record<string, unknown>) => {
    if (!isIndex(event.index)) return turn.unreadable("bad_index", "a block index is not an integer of 0 or more");
    if (blocks.has(event.index)) return turn.streamError("out_of_order", "a block started twice");
    const content = event.content_block;
    if (!isObject(content)) return turn.unreadable("bad_event", "content_block is not an object");
    if (content.type === "tool_use") {
      const id = stringField(content.id);
      const name = stringField(content.name);
      if (id === WRONG || name === WRONG) return turn.unreadable("bad_event", "a tool_use block's id or name is not a string");
      const call = turn.startCall();
      turn.setId(call, id);
      turn.setName(call, name);
      // null when absent: a block that stops with no text at all then has the arguments {}.
      call.input = content.input ?? null;
      blocks.set(event.index, { call, text: false, stopped: false });
    } else {
      // Text is the answer; thinking, server tools and their results are not.
      const text = content.type === "text";
      blocks.set(event.index, { call: null, text, stopped: false });
      if (text && typeof content.text === "string") turn.text(content.text);
    }
  };

  const delta = (event: Record<string, unknown>) => {
    const block = blockOf(event);
    if (!block) return;
    const d = event.delta;
    if (!isObject(d)) return turn.unreadable("bad_event", "a delta is not an object");
    if (block.text && d.type === "text_delta" && typeof d.text === "string") turn.text(d.text);
    if (block.call && d.type === "input_json_delta") {
      if (typeof d.partial_json !== "string") return turn.unreadable("bad_event", "partial_json is not a string");
      turn.append(block.call, d.partial_json);
    }
  };

  const stop = (event: Record<string, unknown>) => {
    const block = blockOf(event);
    if (!block) return;
    block.stopped = true;
    if (block.call) turn.endCall(block.call);
  };

  return (event) => {
    if (event === "[DONE]") return;
    if (!isObject(event)) return turn.unreadable("bad_event", "an event is not a JSON object");
    const blockEvent = event.type === "content_block_start" || event.type === "content_block_delta" || event.type === "content_block_stop";
    if (blockEvent && turn.ended) return turn.streamError("out_of_order", "a block event after the end of the stream");
    switch (event.type) {
      case "message_start":
        if (isObject(event.message) && isObject(event.message.usage)) turn.mergeUsage(event.message.usage);
        return;
      case "content_block_start":
        return start(event);
      case "content_block_delta":
        return delta(event);
      case "content_block_stop":
        return stop(event);
      case "message_delta":
        if (turn.ended) return;
        if (isObject(event.delta) && typeof event.delta.stop_reason === "string") turn.finishReason = event.delta.stop_reason;
        if (isObject(event.usage)) turn.mergeUsage(event.usage);
        return;
      case "message_stop":
        return turn.finish(turn.finishReason !== null && CUT_SHORT.has(turn.finishReason) ? "incomplete" : "complete");
      case "error":
        return turn.serverError("the server sent an error");
    }
  };
}

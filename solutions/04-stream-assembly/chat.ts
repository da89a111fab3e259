// Chat-completions chunks (README, tasks 1 and 2): `choices[0].delta` holds text and tool-call
// fragments keyed by `index`; `finish_reason` or `[DONE]` ends the stream.
//
// This dialect has no event that ends a call. Servers send calls one after the other, so a call
// ends when a fragment of another call arrives, or when the stream ends normally. Which call a
// fragment belongs to is decided by its index and its id, never by its name or its arguments:
// "OpenAI-compatible" servers leave the index out, reuse index 0 for every call with a new id,
// or repeat the whole id and name in every fragment.
import { isIndex, isObject, stringField, WRONG, type EventReader } from "./fields.ts";
import type { Call, Turn } from "./turn.ts";

/** Finish reasons that say the output was cut short: what is still open is truncated. */
const CUT_SHORT = new Set(["length", "content_filter"]);

export function chatReader(turn: Turn): EventReader {
  let open: Call | null = null;
  /** The index the open call's fragments carry; undefined when they carry none. */
  let openIndex: number | undefined;
  /**
   * The id that tells the open call's fragments apart: its first id, taken even after the call
   * failed (a failed call keeps the id its error named, but its later fragments still name it).
   */
  let openId: string | undefined;
  const endedIds = new Set<string>();
  const endedIndexes = new Set<number>();

  const endOpen = () => {
    if (open === null) return;
    // A refused call has no place: its fragments go nowhere, later ones too, and raise nothing.
    if (open.index >= 0) {
      if (openId !== undefined) endedIds.add(openId);
      if (openIndex !== undefined) endedIndexes.add(openIndex);
    }
    turn.endCall(open);
    open = null;
  };

  const finish = (reason: string | null) => {
    if (turn.ended) return;
    if (reason !== null) turn.finishReason = reason;
    if (reason !== null && CUT_SHORT.has(reason)) {
      open = null;
      turn.finish("incomplete");
    } else {
      endOpen();
      turn.finish("complete");
    }
  };

  const fragment = (entry: unknown) => {
    if (turn.ended) return turn.streamError("out_of_order", "a tool call fragment after the end of the stream");
    if (!isObject(entry)) return turn.unreadable("bad_event", "a tool_calls entry is not an object");
    const fn = entry.function;
    if (fn !== undefined && fn !== null && !isObject(fn)) return turn.unreadable("bad_event", "a tool call's function is not an object");
    if (entry.index !== undefined && entry.index !== null && !isIndex(entry.index)) {
      return turn.unreadable("bad_index", "a tool call's index is not an integer of 0 or more");
    }
    const index = isIndex(entry.index) ? entry.index : undefined;
    const id = stringField(entry.id);
    const name = stringField(fn?.name);
    const args = stringField(fn?.arguments);
    if (id === WRONG || name === WRONG || args === WRONG) return turn.unreadable("bad_event", "a tool call's id, name or arguments is not a string");

    const continues = open !== null && (index === undefined || index === openIndex)
      && (id === undefined || openId === undefined || id === openId);
    if (!continues) {
      const late = id !== undefined ? endedIds.has(id) : index !== undefined && endedIndexes.has(index);
      if (late) return turn.streamError("out_of_order", "a fragment of a call that has already ended");
      endOpen();
      open = turn.startCall();
      openIndex = index;
      openId = undefined;
    }
    openId ??= id;
    const call = open!;
    turn.setId(call, id);
    turn.setName(call, name);
    if (args !== undefined) turn.append(call, args);
  };

  const delta = (value: unknown) => {
    if (value === undefined || value === null) return;
    if (!isObject(value)) return turn.unreadable("bad_event", "a delta is not an object");
    const content = value.content;
    if (typeof content === "string") turn.text(content);
    else if (Array.isArray(content)) {
      // Mistral's reasoning models send content as parts; only the text parts are the answer.
      for (const part of content) if (isObject(part) && part.type === "text" && typeof part.text === "string") turn.text(part.text);
    }
    const calls = value.tool_calls;
    if (calls === undefined || calls === null) return;
    if (!Array.isArray(calls)) return turn.unreadable("bad_event", "tool_calls is not an array");
    for (const entry of calls) fragment(entry);
  };

  return (event) => {
    if (event === "[DONE]") return finish(null);
    if (!isObject(event)) return turn.unreadable("bad_event", "an event is not a JSON object");
    if (event.error !== undefined && event.error !== null) return turn.serverError("the server sent an error");
    if (isObject(event.usage)) turn.setUsage(event.usage);
    const choices = event.choices;
    if (choices === undefined || choices === null) return;
    if (!Array.isArray(choices)) return turn.unreadable("bad_event", "choices is not an array");
    for (const choice of choices) {
      if (!isObject(choice)) {
        turn.unreadable("bad_event", "a choice is not an object");
        continue;
      }
      if (choice.index !== undefined && choice.index !== null && choice.index !== 0) continue; // another candidate (n > 1)
      delta(choice.delta);
      if (typeof choice.finish_reason === "string") finish(choice.finish_reason);
    }
  };
}

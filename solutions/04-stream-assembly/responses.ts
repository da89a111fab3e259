// The Responses API's events (README, task 4). A call starts with `response.output_item.added`,
// which holds its name and `call_id`; its argument deltas name the item's `id` (`item_id`), which is
// not the call id; `response.function_call_arguments.done` or `response.output_item.done` ends it,
// with the whole text again, which must agree with the deltas.
import { isObject, stringField, WRONG, type EventReader } from "./fields.ts";
import type { Call, Turn } from "./turn.ts";

export function responsesReader(turn: Turn): EventReader {
  const calls = new Map<string, Call>();
  const ended = new Set<string>();

  const added = (item: Record<string, unknown>) => {
    const key = stringField(item.id);
    const id = stringField(item.call_id);
    const name = stringField(item.name);
    const args = stringField(item.arguments);
    if (key === undefined || key === WRONG || id === WRONG || name === WRONG || args === WRONG) {
      return turn.unreadable("bad_event", "a function_call item without a string id, or with a field of the wrong type");
    }
    if (calls.has(key)) return turn.streamError("out_of_order", "a call started twice");
    const call = turn.startCall();
    calls.set(key, call);
    turn.setId(call, id);
    turn.setName(call, name);
    if (args !== undefined) turn.append(call, args);
  };

  /** The call of `key`, or undefined after reporting why there is none. */
  const callOf = (key: unknown): [string, Call] | undefined => {
    const k = stringField(key);
    if (k === undefined || k === WRONG) {
      turn.unreadable("bad_event", "an event names no item");
      return undefined;
    }
    const call = calls.get(k);
    if (call === undefined) {
      turn.streamError("out_of_order", "an event for a call that has not started");
      return undefined;
    }
    return [k, call];
  };

  const argumentsDelta = (event: Record<string, unknown>) => {
    const found = callOf(event.item_id);
    if (!found) return;
    if (typeof event.delta !== "string") return turn.unreadable("bad_event", "an arguments delta is not a string");
    if (ended.has(found[0])) return turn.streamError("out_of_order", "an arguments delta after the call's end");
    turn.append(found[1], event.delta);
  };

  const callEnd = (key: unknown, args: unknown) => {
    const found = callOf(key);
    if (!found) return;
    const [k, call] = found;
    if (ended.has(k)) return; // the second of the two end events
    if (args !== undefined && args !== null && typeof args !== "string") return turn.unreadable("bad_event", "a call's arguments are not a string");
    ended.add(k);
    if (typeof args === "string") {
      if (call.pieces.length === 0) turn.append(call, args);
      else call.expected = args;
    }
    turn.endCall(call);
  };

  const usageOf = (event: Record<string, unknown>) => {
    const response = event.response;
    if (isObject(response) && isObject(response.usage)) turn.setUsage(response.usage);
    return isObject(response) ? response : {};
  };

  return (event) => {
    if (event === "[DONE]") return;
    if (!isObject(event)) return turn.unreadable("bad_event", "an event is not a JSON object");
    const callEvent = typeof event.type === "string" && (event.type.startsWith("response.function_call_arguments.")
      || ((event.type === "response.output_item.added" || event.type === "response.output_item.done")
        && isObject(event.item) && event.item.type === "function_call"));
    if (callEvent && turn.ended) return turn.streamError("out_of_order", "a call event after the end of the stream");
    switch (event.type) {
      case "response.output_item.added":
      case "response.output_item.done": {
        const item = event.item;
        if (!isObject(item)) return turn.unreadable("bad_event", "an output item is not an object");
        if (item.type !== "function_call") return; // messages, reasoning, the server's own tools
        return event.type === "response.output_item.added" ? added(item) : callEnd(item.id, item.arguments);
      }
      case "response.function_call_arguments.delta":
        return argumentsDelta(event);
      case "response.function_call_arguments.done":
        return callEnd(event.item_id, event.arguments);
      case "response.output_text.delta":
        if (typeof event.delta === "string") turn.text(event.delta);
        return;
      case "response.completed":
      case "response.incomplete": {
        if (turn.ended) return;
        const response = usageOf(event);
        const details = response.incomplete_details;
        turn.finishReason = event.type === "response.incomplete"
          ? (isObject(details) && typeof details.reason === "string" ? details.reason : "incomplete")
          : "completed";
        return turn.finish(event.type === "response.completed" ? "complete" : "incomplete");
      }
      case "response.failed":
        if (!turn.ended) usageOf(event);
        return turn.serverError("the response failed");
      case "error":
        return turn.serverError("the server sent an error");
    }
  };
}

// Ollama's native chat stream (README, task 4): newline-delimited JSON, each line a `message` with
// text and, when the model calls tools, whole calls with their arguments as an object; `done: true`
// ends it.
import { isObject, type EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

export function ollamaReader(turn: Turn): EventReader {
  const message = (value: Record<string, unknown>) => {
    if (typeof value.content === "string") turn.text(value.content); // `thinking` is not the answer
    const calls = value.tool_calls;
    if (calls === undefined || calls === null) return;
    if (!Array.isArray(calls)) return turn.unreadable("bad_event", "tool_calls is not an array");
    for (const entry of calls) {
      if (!isObject(entry) || !isObject(entry.function)) {
        turn.unreadable("bad_event", "a tool call is not an object with a function");
        continue;
      }
      turn.wholeCall({ id: entry.id, name: entry.function.name, args: entry.function.arguments });
    }
  };

  return (event) => {
    if (event === "[DONE]") return;
    if (!isObject(event)) return turn.unreadable("bad_event", "an event is not a JSON object");
    if (event.error !== undefined && event.error !== null) return turn.serverError("the server sent an error");
    const m = event.message;
    if (m !== undefined && m !== null) {
      if (!isObject(m)) return turn.unreadable("bad_event", "message is not an object");
      message(m);
    }
    if (event.done === true && !turn.ended) {
      if (typeof event.done_reason === "string") turn.finishReason = event.done_reason;
      turn.finish(event.done_reason === "length" ? "incomplete" : "complete");
    }
  };
}

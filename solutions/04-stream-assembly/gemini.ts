// Gemini's chunks (README, task 4): `candidates[0].content.parts`, where a `functionCall` part is a
// whole call (name, arguments as an object, often no id) and a `thoughtSignature` beside it must go
// back to the model with the call. A whole call's end is certain the moment it arrives.
import { isObject, type EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

export function geminiReader(turn: Turn): EventReader {
  const part = (value: unknown) => {
    if (!isObject(value)) return turn.unreadable("bad_event", "a part is not an object");
    const call = value.functionCall;
    if (call !== undefined && call !== null) {
      if (!isObject(call)) return turn.unreadable("bad_event", "functionCall is not an object");
      return turn.wholeCall({ id: call.id, name: call.name, args: call.args, thoughtSignature: value.thoughtSignature });
    }
    // Parts marked `thought` are the model's reasoning, not its answer.
    if (typeof value.text === "string" && value.thought !== true) turn.text(value.text);
  };

  const candidate = (value: Record<string, unknown>) => {
    const content = value.content;
    if (content !== undefined && content !== null) {
      if (!isObject(content)) return turn.unreadable("bad_event", "content is not an object");
      const parts = content.parts;
      if (parts !== undefined && parts !== null) {
        if (!Array.isArray(parts)) return turn.unreadable("bad_event", "parts is not an array");
        for (const p of parts) part(p);
      }
    }
    if (typeof value.finishReason === "string" && !turn.ended) {
      turn.finishReason = value.finishReason;
      turn.finish(value.finishReason === "STOP" ? "complete" : "incomplete");
    }
  };

  return (event) => {
    if (event === "[DONE]") return;
    if (!isObject(event)) return turn.unreadable("bad_event", "an event is not a JSON object");
    if (event.error !== undefined && event.error !== null) return turn.serverError("the server sent an error");
    if (isObject(event.usageMetadata)) turn.setUsage(event.usageMetadata);
    const candidates = event.candidates;
    if (candidates === undefined || candidates === null) return;
    if (!Array.isArray(candidates)) return turn.unreadable("bad_event", "candidates is not an array");
    for (const c of candidates) {
      if (!isObject(c)) {
        turn.unreadable("bad_event", "a candidate is not an object");
        continue;
      }
      if (c.index !== undefined && c.index !== null && c.index !== 0) continue; // another candidate
      candidate(c);
    }
  };
}

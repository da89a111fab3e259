// Gemini's chunks (README, task 4): functionCall parts are whole calls (arguments as an object, often no id, a thoughtSignature to keep); thought parts are not text.
// (Not part of the public API: a suggested place.)
import type { EventReader } from "./fields.ts";
import type { Turn } from "./turn.ts";

/** TODO: a reader of this dialect's events that tells `turn` what each one means. */
export function geminiReader(turn: Turn): EventReader {
  throw new Error("not implemented");
}

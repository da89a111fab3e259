// The whitelist of tools (README, task 2).
import type { Registry, ToolDefinition } from "./types.ts";

/**
 * TODO: trim and lower-case a tool name, so that " Get_Weather " and "get_weather" are one name.
 */
export function normalizeName(name: string): string {
  throw new Error("not implemented");
}

/**
 * TODO: keep the tools by normalised name; throw an Error for a name that is not a primitive
 * string (a `String` object or a number is refused), a name that is empty after trimming, a
 * `run` that is not a function, or two tools with one normalised name. `lookup` returns
 * undefined for anything that is not a string (never throws) and must only ever find what was
 * registered: never `__proto__`, `constructor`, `toString`...
 */
export function createRegistry(tools: readonly ToolDefinition[]): Registry {
  throw new Error("not implemented");
}

// The whitelist. A Map, not a plain object: `registry["constructor"]` on an object literal finds
// Object.prototype's constructor, and `registry["__proto__"]` finds the prototype itself. A Map
// only ever holds what was put in it.
import type { Registry, ToolDefinition } from "./types.ts";

/** Names are compared after trimming and lower-casing: `" Get_Weather "` is `get_weather`. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}

export function createRegistry(tools: readonly ToolDefinition[]): Registry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    const key = typeof tool?.name === "string" ? normalizeName(tool.name) : "";
    if (key === "") throw new Error("a tool needs a non-empty name");
    if (typeof tool.run !== "function") throw new Error(`tool '${key}' has no run function`);
    if (byName.has(key)) throw new Error(`two tools are named '${key}'`);
    byName.set(key, tool);
  }
  return {
    lookup: (name) => (typeof name === "string" ? byName.get(normalizeName(name)) : undefined),
    names: () => [...byName.keys()],
  };
}

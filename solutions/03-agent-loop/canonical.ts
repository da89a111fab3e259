// "The same call" must not depend on the order the model happened to write the keys in:
// {"a":1,"b":2} and {"b":2,"a":1} are one call. Canonical JSON sorts keys at every depth.

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
  }
  // undefined (a missing value) has no JSON form; null is the closest honest answer.
  return JSON.stringify(value) ?? "null";
}

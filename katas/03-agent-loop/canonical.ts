// Canonical JSON: the text that makes two calls "the same call" whatever the key order.

/**
 * TODO: return JSON text of `value` with object keys sorted at every depth, no spaces:
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) === '{"a":[{"c":3,"d":2}],"b":1}'.
 * undefined (a missing value) becomes "null".
 */
export function canonicalJson(value: unknown): string {
  throw new Error("not implemented");
}

// Canonical JSON: the text that makes two calls "the same call" whatever the key order.

/**
 * TODO: return JSON text of `value` with object keys sorted at every depth, no spaces:
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) === '{"a":[{"c":3,"d":2}],"b":1}'.
 * undefined becomes null wherever it stands: the value itself, an array item, an object member
 * (whose key is kept: { a: undefined } -> '{"a":null}', where JSON.stringify drops the key).
 */
export function canonicalJson(value: unknown): string {
  throw new Error("not implemented");
}

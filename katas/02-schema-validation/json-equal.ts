// Deep equality of JSON values, as `const`, `enum` and `uniqueItems` need it.

/** TODO: same JSON value: numbers by value, arrays item by item, objects regardless of key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  throw new Error("not implemented");
}

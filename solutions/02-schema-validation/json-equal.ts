// Deep equality of JSON values, as `const`, `enum` and `uniqueItems` need it.

/**
 * Same JSON value: numbers by value (1 equals 1.0), objects regardless of key order. A value JSON
 * cannot hold (NaN, an infinity, undefined) equals nothing, not even itself; an object member
 * whose value is undefined is absent, as JSON.stringify leaves it out.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return isJsonValue(a);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(rb, k) && jsonEqual(ra[k], rb[k]));
}

function isJsonValue(v: unknown): boolean {
  return v !== undefined && (typeof v !== "number" || Number.isFinite(v));
}

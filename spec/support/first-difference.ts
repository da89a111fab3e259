// Where two values first part, for a failed deep equality: vitest's own line ("expected [ 'a"b',
// …(4) ] to deeply equal [ 'a"b', …(4) ]") is cut before the difference, often identically on
// both sides. This names the first path where they differ and both values there, each written
// whole (JSON where it is short; a description where it is long, never a value cut in half).

const SHOWN_CHARS = 80;

type Found = { path: string; actual: unknown; expected: unknown; note?: string } | undefined;

/** A value written whole (JSON) when it is at most `limit` characters, else described. */
export function describeValue(value: unknown, limit = SHOWN_CHARS): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return String(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text !== undefined && text.length <= limit) return text;
  if (typeof value === "string") return `a string of ${[...value].length} characters`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (value instanceof Error) return `${value.name}: ${describeValue(value.message)}`;
  if (value && typeof value === "object") return `an object with keys ${describeValue(Object.keys(value).slice(0, 6))}${Object.keys(value).length > 6 ? " and more" : ""}`;
  return String(value);
}

const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

/** expect.any(String), expect.stringMatching(...): a matcher stands for every value it accepts. */
const asymmetric = (v: unknown): v is { asymmetricMatch(other: unknown): boolean; toAsymmetricMatcher?(): string; toString(): string } =>
  typeof v === "object" && v !== null && typeof (v as { asymmetricMatch?: unknown }).asymmetricMatch === "function";

function walk(actual: unknown, expected: unknown, path: string, depth: number): Found {
  if (Object.is(actual, expected)) return undefined;
  if (depth > 200) return undefined;
  if (asymmetric(expected)) return expected.asymmetricMatch(actual) ? undefined : { path, actual, expected: expected.toAsymmetricMatcher?.() ?? expected.toString(), note: "a matcher" };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (!isObject(actual) || !isObject(expected) || Array.isArray(actual) !== Array.isArray(expected)) {
    if (typeof actual === "string" && typeof expected === "string") {
      const a = [...actual];
      const e = [...expected];
      let at = 0;
      while (at < a.length && at < e.length && a[at] === e[at]) at++;
      return { path, actual, expected, note: `the strings part at character ${at}` };
    }
    return { path, actual, expected };
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let i = 0; i < Math.min(actual.length, expected.length); i++) {
      const found = walk(actual[i], expected[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    if (actual.length !== expected.length) {
      const extra = actual.length > expected.length;
      const i = Math.min(actual.length, expected.length);
      return { path: `${path}[${i}]`, actual: extra ? actual[i] : undefined, expected: extra ? undefined : expected[i], note: `${actual.length} items, expected ${expected.length}` };
    }
    return undefined;
  }
  // Keys whose value is undefined are absent for toEqual; the expected side's order first.
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
  for (const k of keys) {
    const a = actual[k];
    const e = expected[k];
    if (a === undefined && e === undefined) continue;
    const found = walk(a, e, `${path}${key(k)}`, depth + 1);
    if (found) return { ...found, ...(found.path === `${path}${key(k)}` && (!(k in actual) || !(k in expected)) ? { note: !(k in actual) ? "missing" : "not expected" } : {}) };
  }
  return undefined;
}

/** "at $.calls[0].name: got "getWeather", expected "get_weather"", or undefined when no difference is found. */
export function firstDifference(actual: unknown, expected: unknown): string | undefined {
  const found = walk(actual, expected, "$", 0);
  if (!found) return undefined;
  return `at ${found.path}: got ${describeValue(found.actual)}, expected ${describeValue(found.expected)}${found.note ? ` (${found.note})` : ""}`;
}

// Reads the `engines.node` ranges that package-lock.json records, in the forms npm packages write
// them, so that a test can tell whether `npm ci` on a given Node would warn (EBADENGINE). A form it
// does not know is an error, never a silent yes.

type Version = [number, number, number];

function version(text: string): Version {
  const parts = text.trim().replace(/^v/, "").split(".");
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) throw new Error(`not a version: "${text}"`);
  const [major, minor = 0, patch = 0] = parts.map(Number);
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** One comparator: `>=20`, `>= 18.0`, `<=22.0.0`, `^20.19.0`, `20` (that major), `^18`. */
function admits(comparator: string, node: Version): boolean {
  const match = /^(>=|<=|>|<|\^|~)?\s*(\d+(?:\.\d+){0,2})$/.exec(comparator.trim());
  if (!match) throw new Error(`an engines comparator this reader does not know: "${comparator}"`);
  const [, op, text] = match;
  const bound = version(text);
  const given = text.split(".").length;
  const order = compare(node, bound);
  switch (op) {
    case ">=": return order >= 0;
    case "<=": return order <= 0;
    case ">": return order > 0;
    case "<": return order < 0;
    // ^X.Y.Z: at least X.Y.Z, same major (every major here is above 0).
    case "^": return order >= 0 && node[0] === bound[0];
    case "~": return order >= 0 && node[0] === bound[0] && (given < 2 || node[1] === bound[1]);
    // A bare X or X.Y: every version that starts so.
    default: return bound.slice(0, given).every((part, i) => node[i] === part);
  }
}

/** Whether `node` (such as process.versions.node) satisfies `range` (alternatives joined by `||`, each a space-separated list of comparators). */
export function nodeSatisfies(range: string, node: string): boolean {
  const at = version(node);
  return range.split("||").some((alternative) => {
    const comparators = alternative.trim().replace(/(>=|<=|>|<|\^|~)\s+/g, "$1").split(/\s+/).filter(Boolean);
    if (comparators.length === 0) throw new Error(`an empty engines range: "${range}"`);
    return comparators.every((c) => admits(c, at));
  });
}

// The grader's records (verdicts.jsonl, the sandboxes' reports) are JSON lines appended by processes
// that may be killed mid-line.
import { existsSync, readFileSync } from "node:fs";

/** Every whole record of the file (none when it is missing); a line cut by a kill is skipped. */
export function readJsonLines<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  const records: T[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      // a line cut by a kill: what it said is lost
    }
  }
  return records;
}


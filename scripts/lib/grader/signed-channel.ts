// The one channel a verdict travels on: lines that vitest's main process appends to a file in the
// grader's private folder, each signed with a key that only that process and the grader hold (it
// reaches the process in a file that is deleted as soon as it is read, before any test worker
// starts). A test worker that finds the file, on a platform where it is not confined, still cannot
// write a line the grader accepts.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export const newKey = (): string => randomBytes(32).toString("hex");

const sign = (key: string, payload: string) => createHmac("sha256", key).update(payload).digest("hex");

export function appendSigned(file: string, key: string, record: object): void {
  const payload = JSON.stringify(record);
  appendFileSync(file, `${sign(key, payload)} ${payload}\n`);
}

export interface SignedLines<T> {
  records: T[];
  /** Lines whose signature did not match: something other than vitest's main process wrote them. */
  forged: number;
}

export function readSigned<T>(file: string, key: string): SignedLines<T> {
  const result: SignedLines<T> = { records: [], forged: 0 };
  if (!existsSync(file)) return result;
  const lines = readFileSync(file, "utf8").split("\n");
  lines.forEach((line, index) => {
    if (line === "") return;
    const space = line.indexOf(" ");
    const mac = Buffer.from(line.slice(0, Math.max(space, 0)), "hex");
    const payload = line.slice(space + 1);
    const expected = Buffer.from(sign(key, payload), "hex");
    if (space !== 64 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      // A last line with no newline was cut short by a kill: not a forgery, just lost.
      if (index !== lines.length - 1) result.forged++;
      return;
    }
    result.records.push(JSON.parse(payload) as T);
  });
  return result;
}

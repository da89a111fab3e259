// Time from a save to watch's answers, measured from outside as a candidate would feel it: a copy
// of the reference is watched, a file of it is saved (a comment appended), and the clock stops
// when the "k of n passing" line is printed. The first answer leaves out the slow tests (a quick
// answer); the second has them all (the full answer).
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { WatchSession } from "../watch/session.ts";

export interface WatchLatency {
  kata: string;
  /** Save to the first answer, per save. */
  firstMs: number[];
  /** Save to the answer with every test, per save. */
  fullMs: number[];
  /** What the last save's first and full answers said. */
  firstLine: string;
  fullLine: string;
}

const firstLine = (text: string): string => text.split("\n")[0].replace(/^\S+(?: [AP]M)?\s+/, "");

export async function watchLatency(kataNumber: number, kata: string, file: string, saves: number): Promise<WatchLatency> {
  const impl = mkdtempSync(join(tmpdir(), "tuk-watch-bench-"));
  cpSync(join(PROJECT_ROOT, "solutions", kata), join(impl, kata), { recursive: true });
  const session = new WatchSession(kataNumber, impl);
  const result: WatchLatency = { kata, firstMs: [], fullMs: [], firstLine: "", fullLine: "" };
  try {
    await session.next(120_000);
    for (let i = 1; i <= saves; i++) {
      // Let the machine settle after the last full run, as between a candidate's saves.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const path = join(impl, kata, file);
      session.save(path, `${readFileSync(path, "utf8")}\n// bench save ${i}\n`);
      const answers = await session.untilFull(120_000);
      result.firstMs.push(answers[0].ms);
      result.fullMs.push(answers.at(-1)!.ms);
      result.firstLine = firstLine(answers[0].text);
      result.fullLine = firstLine(answers.at(-1)!.text);
    }
  } finally {
    session.stop();
    rmSync(impl, { recursive: true, force: true });
  }
  return result;
}

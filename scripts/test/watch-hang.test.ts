// After watch caught an endless loop, the save that fixed it came while the kata was being graded
// the grader's way (cold, to name the test that hangs), and was dropped: no answer until the next
// save, and none at all when the candidate waited. Through a real watch process and real saves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { WatchSession } from "../lib/watch/session.ts";
import { KATA1, kata1Variant } from "./support/kata1-variants.ts";

const dir = mkdtempSync(join(tmpdir(), "tuk-watch-hang-"));
// Its calculator never returns on "% 0": the first run hangs in an L2 test.
const impl = kata1Variant(dir, "hangs");
// Watch takes 5 s without a test ending for a hang here, not 20: the test waits less.
const session = new WatchSession(1, impl, { TUK_WATCH_STALL_MS: "5000" });
afterAll(() => {
  session.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function until(text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!session.output.includes(text)) {
    if (Date.now() > deadline) throw new Error(`watch never printed ${JSON.stringify(text)}:\n${session.output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("npm run watch after an endless loop", () => {
  test("the save that fixes the hang, made while watch names the test that hangs, is answered", { timeout: 240_000 }, async () => {
    await until("Finding the test that hangs", 120_000);
    // Saved once the cold grade has read the code (its bundle is made in its first second or two;
    // then it waits out the hang): the grade is of the hanging code, and the save comes after.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // The reference's index.ts: the calculator returns again.
    session.save(join(impl, KATA1, "index.ts"), readFileSync(join(PROJECT_ROOT, "solutions", KATA1, "index.ts"), "utf8"));
    const deadline = Date.now() + 120_000;
    let answer = await session.next(120_000);
    while (answer.passing < answer.total && Date.now() < deadline) answer = await session.next(deadline - Date.now());
    expect(answer.passing, session.output).toBe(answer.total);
    expect(answer.text).toContain("All passing");
  });
});

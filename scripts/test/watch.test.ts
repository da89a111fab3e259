import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { WatchSession } from "../lib/watch/session.ts";

const KATA = "01-regex-dispatch";
const impl = mkdtempSync(join(tmpdir(), "tuk-watch-test-"));
cpSync(join(PROJECT_ROOT, "solutions", KATA), join(impl, KATA), { recursive: true });
// The specs' own number of runs per property: at it, the slowest properties (the truncation
// property, the round trips) take well over watch's 50 ms on any machine, so the quick answer has
// tests to leave to the full run. (The linear-time checks, once the slow ones, now take about 30 ms
// each on an idle machine.)
const session = new WatchSession(1, impl);
afterAll(() => {
  session.stop();
  rmSync(impl, { recursive: true, force: true });
});

describe("npm run watch", () => {
  test("answers a save twice: at once without the slow tests, then with every test", { timeout: 120_000 }, async () => {
    const first = await session.next(60_000);
    expect(first.stillRunning).toBe(0);
    expect(first.passing).toBe(first.total);
    expect(first.text).toContain("All passing");

    // Addition made subtraction: some calculator tests fail; the linear-time tests still pass.
    const file = join(impl, KATA, "calculate.ts");
    const source = readFileSync(file, "utf8");
    const broken = source.replace("value + right : value - right", "value - right : value + right");
    expect(broken).not.toBe(source);
    session.save(file, broken);

    const [quick, full, ...more] = await session.untilFull(60_000);
    expect(more).toEqual([]);
    // The quick answer left out the tests that were slow in the first run, and says so.
    expect(quick.stillRunning, `the quick answer:\n${quick.text}`).toBeGreaterThan(0);
    expect(quick.total).toBe(first.total);
    expect(quick.passing + quick.stillRunning).toBeLessThan(quick.total);
    // It already names the next failing test and its message.
    expect(quick.text).toMatch(/\n\s+next: .+\[L\d w\d+( core)?\]\n\s+\S/);
    expect(quick.text).not.toContain("waiting for the full run");
    // It says what changed since the last full answer, among the tests it ran: some now fail.
    expect(quick.text).toMatch(/\n\s+since the last full answer: (\d+ now pass(es)?; )?\d+ now fails?: /);
    // The full answer follows: nothing left out, the quick answer's passing tests still passing;
    // a slow test may fail too (a property can reach the broken calculator).
    expect(full, full?.text).toBeDefined();
    expect(full.stillRunning).toBe(0);
    expect(full.passing).toBeGreaterThanOrEqual(quick.passing);
    expect(full.passing).toBeLessThanOrEqual(quick.passing + quick.stillRunning);
    expect(full.ms).toBeGreaterThan(quick.ms);
    // Counted from the last full answer, the quick answer's failures among them.
    expect(full.text).toMatch(/\n\s+since the last full answer: .*now fails?: /);
  });
});

// watch applies the grade's verdict on the folder itself: an import the kata rule refuses, or code
// that does not build, is scored as the grade scores it (0), in the grade's words, though the code
// runs in watch's own process where the import works; a save no test reaches is answered too; a
// failed deep equality shows the input, as the grade shows it.
// Through a real watch process and real saves.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { WatchSession } from "../lib/watch/session.ts";

const KATA = "01-regex-dispatch";
const impl = mkdtempSync(join(tmpdir(), "tuk-watch-rules-"));
cpSync(join(PROJECT_ROOT, "solutions", KATA), join(impl, KATA), { recursive: true });
const session = new WatchSession(1, impl);
afterAll(() => {
  session.stop();
  rmSync(impl, { recursive: true, force: true });
});

describe("npm run watch and the grade's rules", () => {
  test("a used node:assert import scores 0 with the grade's words; a syntax error names its place; fixed, all pass again; a failure shows its input", { timeout: 180_000 }, async () => {
    const first = await session.next(60_000);
    expect(first.passing, first.text).toBe(first.total);

    const file = join(impl, KATA, "calculate.ts");
    const source = readFileSync(file, "utf8");
    // Used, so no transpiler drops it: the code works in process, and the grade refuses it.
    session.save(file, `import { strict as assert } from "node:assert";\n${source}\nassert.ok(true);\n`);
    const refused = (await session.untilFull(60_000)).at(-1)!;
    expect(refused.passing, refused.text).toBe(0);
    expect(refused.text).toContain(`scored 0: import refused: ${KATA}/calculate.ts imports 'node:assert': a kata may import only its own files`);
    expect(refused.text).not.toContain("All passing");

    session.save(file, `${source}\nexport const broken = ;\n`);
    const broken = (await session.untilFull(60_000)).at(-1)!;
    expect(broken.passing, broken.text).toBe(0);
    // The file as the candidate's terminal opens it: the saved file's own path, line and column.
    expect(broken.text).toContain(`${KATA} failed to load: ${file}:`);
    expect(broken.text).toMatch(/calculate\.ts:\d+:\d+: /);
    // One line says it, not one per spec file.
    expect(broken.text.match(/failed to load/g)).toHaveLength(1);

    session.save(file, source);
    const fixed = (await session.untilFull(60_000)).at(-1)!;
    expect(fixed.passing, fixed.text).toBe(fixed.total);
    expect(fixed.text).toContain("All passing");
    expect(fixed.text).toMatch(new RegExp(`since the last full answer: ${fixed.total} now pass`));

    // A file index.ts does not import: no test reaches it, and watch says so rather than nothing.
    const before = session.output.length;
    session.save(join(impl, KATA, "scratch.ts"), "export const idea = 1;\n");
    const deadline = Date.now() + 30_000;
    while (!session.output.slice(before).includes("saved scratch.ts: index.ts does not import it") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(session.output.slice(before)).toContain("saved scratch.ts: index.ts does not import it, so no test reaches it yet");

    // A failed deep equality says where the values part and, as in a graded run, the input the
    // test gave the kata: here parseToolCalls loses each call's first positional argument.
    const index = join(impl, KATA, "index.ts");
    const exports = readFileSync(index, "utf8");
    const losing = exports.replace(
      'export { parseToolCalls } from "./parse.ts";',
      'import { parseToolCalls as parseAll } from "./parse.ts";\nexport const parseToolCalls = (text: string) => { const all = parseAll(text); return { ...all, calls: all.calls.map((call) => ({ ...call, args: call.args.slice(1) })) }; };',
    );
    expect(losing).not.toBe(exports);
    session.save(index, losing);
    const lost = (await session.untilFull(60_000)).at(-1)!;
    expect(lost.passing, lost.text).toBeLessThan(lost.total);
    expect(lost.text).toMatch(/\n\s+next: .+\n\s+at \$\.args\[0\]: got .+\n\s+input: parseToolCalls\(".*"\)\n/);
  });
});

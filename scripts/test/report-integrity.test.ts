// Every report (terminal, results.json, JUnit, HTML) shows what the grader refused, saw of
// tampering or noted in a kata's source, and shows nothing of the kind for a clean run.
import { describe, expect, test } from "vitest";
import type { Integrity } from "../lib/grader/integrity.ts";
import { firstNotes, worstStatus } from "../lib/grader/integrity-report.ts";
import { htmlReport } from "../lib/grader/report-html.ts";
import { jsonReport, type RunInfo } from "../lib/grader/report-json.ts";
import { junitReport } from "../lib/grader/report-junit.ts";
import { integritySection, nextSteps, table, type Style } from "../lib/grader/report-terminal.ts";
import type { KataRun } from "../lib/grader/run-kata.ts";
import { score } from "../lib/grader/score.ts";
import type { TestResult } from "../lib/grader/test-result.ts";

const TAMPERED = "spec/01-regex-dispatch/bfcl.spec.ts: a test that must fail passed (canary beside 'x')";
const REFUSED = "katas/02-schema-validation/index.ts imports 'vitest': a kata may import only its own files";
// Written to be escaped: a note quotes the candidate's source, which may hold anything.
const NOTE = `03-agent-loop/index.ts:4: names the test runner or its internals: const s = (globalThis as any)["__vitest_worker__"] && a < b & "c"`;

const info: RunInfo = { impl: "candidate", seed: 42, bank: false, startedAt: new Date("2026-12-01T00:00:00Z"), durationMs: 10 };

/** A run as run-kata.ts returns it; an untrusted one has every test failed with "not counted: ..." and a "scored 0" problem. */
function run(id: string, number: number, integrity?: Integrity): KataRun {
  const distrust = integrity && integrity.tampered.length + integrity.refused.length > 0
    ? `not counted: ${integrity.tampered.length > 0 ? `tampering seen: ${integrity.tampered[0]}` : `import refused: ${integrity.refused[0]}`}`
    : undefined;
  const tests = ["1. task > first", "1. task > second"].map((name): TestResult => ({
    kata: id, file: `spec/${id}/none.spec.ts`, name, level: "L1", weight: 1, bank: false, taskId: 1,
    ...(distrust ? { status: "fail", summary: distrust, message: distrust } : { status: "pass" }),
  }));
  return {
    kata: { id, number },
    tests,
    problems: distrust ? [distrust.replace(/^not counted: /, "scored 0: ")] : [],
    hungTests: [],
    durationMs: 5,
    ...(integrity ? { integrity } : {}),
  };
}

const clean = () => [run("01-regex-dispatch", 1, { refused: [], tampered: [], notes: [] }), run("02-schema-validation", 2)];
const tampered = () => run("01-regex-dispatch", 1, { refused: [], tampered: [TAMPERED], notes: [] });
const refused = () => run("02-schema-validation", 2, { refused: [REFUSED], tampered: [], notes: [] });
const noted = (notes = [NOTE]) => run("03-agent-loop", 3, { refused: [], tampered: [], notes });
const mixed = () => [tampered(), refused(), noted()];

/** Marks each style call, so a test can see what was coloured how. */
const marking: Style = { bold: (s) => s, dim: (s) => `<dim>${s}</dim>`, red: (s) => `<red>${s}</red>`, green: (s) => s, yellow: (s) => s };
const plain: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s };

describe("terminal report", () => {
  test("a tampered kata's row says TAMPERED, a refused one's REFUSED, in red; a clean or noted row says neither", () => {
    const runs = mixed();
    const rows = table(score(runs), marking, runs).split("\n");
    expect(rows.find((r) => r.includes("01-regex-dispatch"))).toContain("<red>TAMPERED</red>");
    expect(rows.find((r) => r.includes("02-schema-validation"))).toContain("<red>REFUSED</red>");
    expect(rows.find((r) => r.includes("03-agent-loop"))).not.toMatch(/TAMPERED|REFUSED/);
    const cleanRuns = clean();
    expect(table(score(cleanRuns), marking, cleanRuns)).not.toMatch(/TAMPERED|REFUSED/);
  });

  test("the Integrity section lists each kata's findings, notes dimmed", () => {
    const section = integritySection(mixed(), marking);
    expect(section).toContain("Integrity");
    expect(section).toContain("01-regex-dispatch: <red>TAMPERED, scored 0</red>");
    expect(section).toContain(`tampered: ${TAMPERED}`);
    expect(section).toContain("02-schema-validation: <red>REFUSED, scored 0</red>");
    expect(section).toContain(`refused: ${REFUSED}`);
    expect(section).toContain(`<dim>    · note: ${NOTE}</dim>`);
  });

  test("at most 10 notes per kata, then how many more, counting integrity.ts's own '... and N more'", () => {
    const notes = Array.from({ length: 20 }, (_, i) => `03-agent-loop/index.ts:${i + 1}: names /proc`);
    const section = integritySection([noted([...notes, "... and 7 more"])], plain);
    expect(section).toContain("index.ts:10: names /proc");
    expect(section).not.toContain("index.ts:11: names /proc");
    expect(section).toContain("... and 17 more notes");
    expect(firstNotes(notes.slice(0, 3), 10)).toEqual({ shown: notes.slice(0, 3), more: 0 });
  });

  test("nothing is printed for a clean run, with or without an integrity record", () => {
    expect(integritySection(clean(), marking)).toBe("");
  });

  test("the next steps never call a tampered or refused kata fine", () => {
    // A kata with no test at all scores "-", which is not below 100: the pass line must still not appear.
    const empty = { ...tampered(), tests: [] };
    for (const runs of [[tampered()], [empty], [refused()]]) {
      const next = nextSteps(runs, score(runs), "katas");
      expect(next).not.toContain("All graded katas pass");
      expect(next).toContain("scored 0");
      expect(next).toContain("see Integrity above");
    }
    expect(nextSteps([tampered()], score([tampered()]), "katas")).toContain("tampered with");
    expect(nextSteps([refused()], score([refused()]), "katas")).toContain("import only its own files");
    expect(nextSteps(clean(), score(clean()), "katas")).toContain("All graded katas pass");
  });
});

describe("results.json", () => {
  test("each kata carries its integrity, the report its worst status and what it means", () => {
    const runs = mixed();
    const report = jsonReport(runs, score(runs), info);
    expect(report.x_katas.map((k) => k.integrity)).toEqual([
      { status: "tampered", refused: [], tampered: [TAMPERED], notes: [] },
      { status: "refused", refused: [REFUSED], tampered: [], notes: [] },
      { status: "notes", refused: [], tampered: [], notes: [NOTE] },
    ]);
    expect(report.x_integrity).toBe("tampered");
    expect(report.x_integrity_message).toBe(
      "01-regex-dispatch scored 0: the grader saw its test run tampered with\n02-schema-validation scored 0: the grader refused an import (a kata may import only its own files)",
    );
    // Still results.json v3: a failing (not erroring) run has no top-level message.
    expect(report.version).toBe(3);
    expect(report.status).toBe("fail");
    expect(report).not.toHaveProperty("message");
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  test("a refused kata alone makes the report 'refused'; notes alone make it 'notes' with no message", () => {
    expect(jsonReport([refused()], score([refused()]), info).x_integrity).toBe("refused");
    const notesOnly = jsonReport([noted()], score([noted()]), info);
    expect(notesOnly.x_integrity).toBe("notes");
    expect(notesOnly).not.toHaveProperty("x_integrity_message");
    expect(worstStatus([noted(), tampered(), refused()])).toBe("tampered");
  });

  test("when the run is an error, the top-level message says first which kata cannot be trusted", () => {
    const erroring = tampered();
    erroring.tests = erroring.tests.map((t) => ({ ...t, status: "error" as const }));
    const report = jsonReport([erroring], score([erroring]), info);
    expect(report.status).toBe("error");
    expect(report.message?.split("\n")[0]).toBe("01-regex-dispatch scored 0: the grader saw its test run tampered with");
  });

  test("a clean run: status ok and empty lists, nothing else", () => {
    const runs = clean();
    const report = jsonReport(runs, score(runs), info);
    for (const kata of report.x_katas) expect(kata.integrity).toEqual({ status: "ok", refused: [], tampered: [], notes: [] });
    expect(report.x_integrity).toBe("ok");
    expect(report).not.toHaveProperty("x_integrity_message");
    expect(report).not.toHaveProperty("message");
  });
});

describe("JUnit", () => {
  const suite = (xml: string, id: string) => xml.slice(xml.indexOf(`<testsuite name="${id}"`), xml.indexOf("</testsuite>", xml.indexOf(`<testsuite name="${id}"`)));

  test("each suite has an integrity property and its findings, escaped, in <system-err>", () => {
    const runs = mixed();
    const xml = junitReport(runs, score(runs));
    const first = suite(xml, "01-regex-dispatch");
    expect(first).toContain('<property name="integrity" value="tampered"/>');
    expect(first).toMatch(/<system-err>scored 0: [^<]*\ntampered: spec\/01-regex-dispatch\/bfcl\.spec\.ts: a test that must fail passed \(canary beside &apos;x&apos;\)<\/system-err>/);
    const second = suite(xml, "02-schema-validation");
    expect(second).toContain('<property name="integrity" value="refused"/>');
    expect(second).toContain("refused: katas/02-schema-validation/index.ts imports &apos;vitest&apos;");
    const third = suite(xml, "03-agent-loop");
    expect(third).toContain('<property name="integrity" value="notes"/>');
    expect(third).toContain("<system-err>note: 03-agent-loop/index.ts:4: names the test runner or its internals: const s = (globalThis as any)[&quot;__vitest_worker__&quot;] &amp;&amp; a &lt; b &amp; &quot;c&quot;</system-err>");
    expect(third).not.toContain(NOTE);
  });

  test("a clean suite: integrity ok, no <system-err>", () => {
    const runs = clean();
    const xml = junitReport(runs, score(runs));
    expect(xml.match(/<property name="integrity" value="ok"\/>/g)).toHaveLength(2);
    expect(xml).not.toContain("<system-err>");
  });
});

describe("HTML", () => {
  const section = (html: string, id: string) => html.slice(html.indexOf(`<section class="kata" data-kata="${id}"`), html.indexOf("</section>", html.indexOf(`<section class="kata" data-kata="${id}"`)));

  test("a tampered or refused kata has a red badge on its heading and its chart label, and an Integrity section", () => {
    const runs = mixed();
    const html = htmlReport(runs, score(runs), info);
    const first = section(html, "01-regex-dispatch");
    expect(first).toMatch(/<h2>01-regex-dispatch <span class="score">0\.0<\/span> <span class="badge" data-integrity="tampered">tampered<\/span>/);
    expect(first).toContain('<div class="integrity" data-integrity="tampered"><h3>Integrity</h3>');
    expect(first).toContain("<b>tampered</b>: spec/01-regex-dispatch/bfcl.spec.ts: a test that must fail passed (canary beside &apos;x&apos;)");
    expect(html).toContain('class="badge-label" data-kata="01-regex-dispatch" data-integrity="tampered">TAMPERED</text>');
    const second = section(html, "02-schema-validation");
    expect(second).toContain('<span class="badge" data-integrity="refused">refused</span>');
    expect(second).toContain("<b>refused</b>: katas/02-schema-validation/index.ts imports &apos;vitest&apos;");
    expect(html).toContain('data-kata="02-schema-validation" data-integrity="refused">REFUSED</text>');
  });

  test("notes are listed, escaped, without a badge", () => {
    const html = htmlReport([noted()], score([noted()]), info);
    const third = section(html, "03-agent-loop");
    expect(third).toContain('<div class="integrity" data-integrity="notes">');
    expect(third).toContain("note: 03-agent-loop/index.ts:4: names the test runner or its internals: const s = (globalThis as any)[&quot;__vitest_worker__&quot;] &amp;&amp; a &lt; b &amp; &quot;c&quot;</li>");
    expect(html).not.toContain(NOTE);
    expect(html).not.toContain('class="badge"');
    expect(html).not.toContain('class="badge-label"');
  });

  test("a clean run: no badge, no Integrity section", () => {
    const runs = clean();
    const html = htmlReport(runs, score(runs), info);
    expect(html).not.toContain('<span class="badge"');
    expect(html).not.toContain('<div class="integrity"');
    expect(html).not.toContain('class="badge-label"');
    expect(html).not.toMatch(/>(TAMPERED|REFUSED)</);
  });
});

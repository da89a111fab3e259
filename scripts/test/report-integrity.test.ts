// Every report (terminal, results.json, JUnit, HTML, Markdown) shows what the grader refused or
// noted of a kata, and how the graded code was confined; a clean run shows no finding.
import { describe, expect, test } from "vitest";
import type { Integrity } from "../lib/grader/integrity.ts";
import { firstNotes, sandboxLine, worstStatus } from "../lib/grader/integrity-report.ts";
import { htmlReport } from "../lib/grader/report-html.ts";
import { jsonReport, type RunInfo } from "../lib/grader/report-json.ts";
import { junitReport } from "../lib/grader/report-junit.ts";
import { markdownReport } from "../lib/grader/report-markdown.ts";
import { integritySection, nextSteps, table, type Style } from "../lib/grader/report-terminal.ts";
import type { KataResult, SandboxInfo } from "../lib/grader/kata-result.ts";
import { score } from "../lib/grader/score.ts";
import type { TestResult } from "../lib/grader/test-result.ts";

const REFUSED = "02-schema-validation/index.ts imports 'vitest': a kata may import only its own files";
// Written to be escaped: a note names a file of the candidate's folder, which may be called anything.
const NOTE = `03-agent-loop/<b>&"c".ts: a symbolic link (not copied: a kata's files are its own)`;
const SANDBOX: SandboxInfo = { level: "namespaces", words: "own user, PID and network namespaces + Node's permission model" };

const info: RunInfo = { impl: "candidate", seed: 42, bank: false, startedAt: new Date("2026-12-01T00:00:00Z"), durationMs: 10 };

/** A result as grade-katas.ts returns it; a refused one has every test failed with "not counted: ..." and a "scored 0" problem. */
function run(id: string, number: number, integrity?: Integrity, sandbox: SandboxInfo | null = SANDBOX): KataResult {
  const distrust = integrity && integrity.refused.length > 0 ? `not counted: import refused: ${integrity.refused[0]}` : undefined;
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
    ...(sandbox && !distrust ? { sandbox } : {}),
  };
}

const clean = () => [run("01-regex-dispatch", 1, { refused: [], notes: [] }), run("02-schema-validation", 2)];
const refused = () => run("02-schema-validation", 2, { refused: [REFUSED], notes: [] });
const noted = (notes = [NOTE]) => run("03-agent-loop", 3, { refused: [], notes });
const mixed = () => [run("01-regex-dispatch", 1), refused(), noted()];

/** Marks each style call, so a test can see what was coloured how. */
const marking: Style = { bold: (s) => s, dim: (s) => `<dim>${s}</dim>`, red: (s) => `<red>${s}</red>`, green: (s) => s, yellow: (s) => s };
const plain: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s };

describe("terminal report", () => {
  test("a refused kata's row says REFUSED, in red; a clean or noted row does not", () => {
    const runs = mixed();
    const rows = table(score(runs), marking, runs).split("\n");
    expect(rows.find((r) => r.includes("02-schema-validation"))).toContain("<red>REFUSED</red>");
    for (const id of ["01-regex-dispatch", "03-agent-loop"]) expect(rows.find((r) => r.includes(id))).not.toContain("REFUSED");
    const cleanRuns = clean();
    expect(table(score(cleanRuns), marking, cleanRuns)).not.toContain("REFUSED");
  });

  test("the Integrity section lists each kata's findings, notes dimmed", () => {
    const section = integritySection(mixed(), marking);
    expect(section).toContain("Integrity");
    expect(section).toContain("02-schema-validation: <red>REFUSED, scored 0</red>");
    expect(section).toContain(`refused: ${REFUSED}`);
    expect(section).toContain(`<dim>    · note: ${NOTE}</dim>`);
    expect(section).not.toMatch(/tamper/i);
  });

  test("at most 10 notes per kata, then how many more", () => {
    const notes = Array.from({ length: 20 }, (_, i) => `03-agent-loop/link-${i + 1}.ts: a symbolic link`);
    const section = integritySection([noted(notes)], plain);
    expect(section).toContain("link-10.ts");
    expect(section).not.toContain("link-11.ts");
    expect(section).toContain("... and 10 more notes");
    expect(firstNotes(notes.slice(0, 3), 10)).toEqual({ shown: notes.slice(0, 3), more: 0 });
  });

  test("nothing is printed for a clean run, with or without an integrity record", () => {
    expect(integritySection(clean(), marking)).toBe("");
  });

  test("the next steps never call a refused kata fine, and say what to do", () => {
    const empty = { ...refused(), tests: [] };
    for (const runs of [[refused()], [empty]]) {
      const next = nextSteps(runs, score(runs), "katas");
      expect(next).not.toContain("All graded katas pass");
      expect(next).toContain("scored 0");
      expect(next).toContain("import only its own files");
    }
    expect(nextSteps(clean(), score(clean()), "katas")).toContain("All graded katas pass");
  });
});

describe("results.json", () => {
  test("each kata carries its integrity, the report its worst status, what it means and the sandbox", () => {
    const runs = mixed();
    const report = jsonReport(runs, score(runs), info);
    expect(report.x_katas.map((k) => k.integrity)).toEqual([
      { status: "ok", refused: [], notes: [] },
      { status: "refused", refused: [REFUSED], notes: [] },
      { status: "notes", refused: [], notes: [NOTE] },
    ]);
    expect(report.x_integrity).toBe("refused");
    expect(report.x_integrity_message).toBe("02-schema-validation scored 0: the grader refused an import (a kata may import only its own files)");
    expect(report.x_sandbox).toEqual(SANDBOX);
    // Still results.json v3: a failing (not erroring) run has no top-level message.
    expect(report.version).toBe(3);
    expect(report.status).toBe("fail");
    expect(report).not.toHaveProperty("message");
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  test("notes alone make the report 'notes' with no message; no kata ran: no x_sandbox", () => {
    const notesOnly = jsonReport([noted()], score([noted()]), info);
    expect(notesOnly.x_integrity).toBe("notes");
    expect(notesOnly).not.toHaveProperty("x_integrity_message");
    expect(worstStatus([noted(), refused()])).toBe("refused");
    const none = [run("01-regex-dispatch", 1, undefined, null)];
    expect(jsonReport(none, score(none), info)).not.toHaveProperty("x_sandbox");
  });

  test("when the run is an error, the top-level message says first which kata was refused", () => {
    const erroring = refused();
    erroring.tests = erroring.tests.map((t) => ({ ...t, status: "error" as const }));
    const report = jsonReport([erroring], score([erroring]), info);
    expect(report.status).toBe("error");
    expect(report.message?.split("\n")[0]).toBe("02-schema-validation scored 0: the grader refused an import (a kata may import only its own files)");
  });

  test("a clean run: status ok and empty lists, nothing else", () => {
    const runs = clean();
    const report = jsonReport(runs, score(runs), info);
    for (const kata of report.x_katas) expect(kata.integrity).toEqual({ status: "ok", refused: [], notes: [] });
    expect(report.x_integrity).toBe("ok");
    expect(report).not.toHaveProperty("x_integrity_message");
    expect(report).not.toHaveProperty("message");
  });
});

describe("JUnit", () => {
  const suite = (xml: string, id: string) => xml.slice(xml.indexOf(`<testsuite name="${id}"`), xml.indexOf("</testsuite>", xml.indexOf(`<testsuite name="${id}"`)));

  test("each suite has integrity and sandbox properties and its findings, escaped, in <system-err>", () => {
    const runs = mixed();
    const xml = junitReport(runs, score(runs));
    expect(suite(xml, "01-regex-dispatch")).toContain('<property name="sandbox" value="namespaces"/>');
    const second = suite(xml, "02-schema-validation");
    expect(second).toContain('<property name="integrity" value="refused"/>');
    expect(second).toContain("refused: 02-schema-validation/index.ts imports &apos;vitest&apos;");
    const third = suite(xml, "03-agent-loop");
    expect(third).toContain('<property name="integrity" value="notes"/>');
    expect(third).toContain("note: 03-agent-loop/&lt;b&gt;&amp;&quot;c&quot;.ts: a symbolic link");
    expect(third).not.toContain(NOTE);
  });

  test("a clean suite: integrity ok, no <system-err>", () => {
    const runs = clean();
    const xml = junitReport(runs, score(runs));
    expect(xml.match(/<property name="integrity" value="ok"\/>/g)).toHaveLength(2);
    expect(xml).not.toContain("<system-err>");
  });
});

describe("HTML and Markdown", () => {
  const section = (html: string, id: string) => html.slice(html.indexOf(`<section class="kata" data-kata="${id}"`), html.indexOf("</section>", html.indexOf(`<section class="kata" data-kata="${id}"`)));

  test("a refused kata has a red badge on its heading and its chart label, and an Integrity section", () => {
    const runs = mixed();
    const html = htmlReport(runs, score(runs), info);
    const second = section(html, "02-schema-validation");
    expect(second).toContain('<span class="badge" data-integrity="refused">refused</span>');
    expect(second).toContain("<b>refused</b>: 02-schema-validation/index.ts imports &apos;vitest&apos;");
    expect(html).toContain('data-kata="02-schema-validation" data-integrity="refused">REFUSED</text>');
  });

  test("notes are listed, escaped, without a badge", () => {
    const html = htmlReport([noted()], score([noted()]), info);
    expect(section(html, "03-agent-loop")).toContain('<div class="integrity" data-integrity="notes">');
    expect(html).not.toContain(NOTE);
    expect(html).not.toContain('class="badge"');
  });

  test("both say how the graded code was confined", () => {
    const runs = clean();
    const html = htmlReport(runs, score(runs), info);
    expect(html).toContain(`<p class="sandbox" data-sandbox="namespaces">${sandboxLine(SANDBOX).replace(/'/g, "&apos;")}</p>`);
    expect(markdownReport(runs, score(runs), info)).toContain(sandboxLine(SANDBOX));
  });

  test("a clean run: no badge, no Integrity section", () => {
    const runs = clean();
    const html = htmlReport(runs, score(runs), info);
    expect(html).not.toContain('<span class="badge"');
    expect(html).not.toContain('<div class="integrity"');
    expect(html).not.toMatch(/>REFUSED</);
  });
});

// JUnit XML, the report most CI systems read: one <testsuite> per kata, one <testcase> per test.
import { integrityLines, integrityStatus } from "./integrity-report.ts";
import type { KataResult } from "./kata-result.ts";
import type { Scores } from "./score.ts";

export function escapeXml(text: string): string {
  return text
    // XML 1.0 forbids most control characters, even escaped; a candidate's output may hold any.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

export function junitReport(runs: KataResult[], scores: Scores): string {
  const count = (run: KataResult, status: string) => run.tests.filter((t) => t.status === status).length;
  const suites = runs.map((run, i) => {
    const cases = run.tests.map((t) => {
      const [suite, ...rest] = t.name.split(" > ");
      const classname = escapeXml(`${run.kata.id}.${rest.length > 0 ? suite : ""}`);
      const name = escapeXml(`${rest.length > 0 ? rest.join(" > ") : suite} [${t.level} w${t.weight}]`);
      const open = `    <testcase classname="${classname}" name="${name}" time="${seconds(t.durationMs)}"`;
      if (t.status === "pass") return `${open}/>`;
      const tag = t.status === "error" ? "error" : "failure";
      return `${open}>\n      <${tag} message="${escapeXml(t.summary ?? "failed")}">${escapeXml(t.message ?? "")}</${tag}>\n    </testcase>`;
    });
    // JUnit has one <system-err> per suite: the run's problems, then its integrity findings.
    const errLines = [...run.problems, ...integrityLines(run.integrity)];
    const problems = errLines.length > 0 ? `\n    <system-err>${escapeXml(errLines.join("\n"))}</system-err>` : "";
    return [
      `  <testsuite name="${escapeXml(run.kata.id)}" tests="${run.tests.length}" failures="${count(run, "fail")}" errors="${count(run, "error")}" time="${seconds(run.durationMs)}">`,
      `    <properties><property name="score" value="${scores.katas[i].score}"/><property name="integrity" value="${integrityStatus(run.integrity)}"/>${run.sandbox ? `<property name="sandbox" value="${escapeXml(run.sandbox.level)}"/>` : ""}</properties>`,
      ...cases,
      `  ${problems.trim() ? problems.trim() : ""}`.trimEnd(),
      "  </testsuite>",
    ].filter((line) => line !== "").join("\n");
  });
  const all = runs.flatMap((r) => r.tests);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="tool-use-katas" tests="${all.length}" failures="${all.filter((t) => t.status === "fail").length}" errors="${all.filter((t) => t.status === "error").length}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

// npm run interview -- --sprint: the 20-minute round, katas 1-3 on their core tests. Its plan (a
// minute per scheme), its report (a series per kata), and a session end to end: code written the
// way the round writes it passes every core test, watch says so for each kata, Ctrl-C grades the
// three once more and the report shows each scheme reached.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import type { Manifest } from "../lib/grader/manifest.ts";
import { splitTag } from "../lib/grader/test-result.ts";
import { sprintPlan, sprintPlanLines } from "../lib/interview/plan.ts";
import { htmlSummary, terminalSummary, type SessionSummary } from "../lib/interview/session-report.ts";
import { readPoints } from "../lib/interview/session.ts";
import { SPRINT, SPRINT_MINUTES } from "../lib/sprint.ts";
import { untilNoProcessWithEnv } from "./support/processes.ts";
import { runMain } from "./support/run-script.ts";

const work = mkdtempSync(join(tmpdir(), "tuk-sprint-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KATAS = SPRINT.map((s) => s.kata);
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec", "manifest.json"), "utf8")) as Manifest;
const coreCount = KATAS.reduce((n, kata) => n + manifest.katas[kata].tests.filter((t) => splitTag(t.name).core).length, 0);

describe("the sprint's plan", () => {
  test("three schemes, katas 1 to 3 in order, due one after another, the last at minute 20", () => {
    expect(KATAS).toEqual(["01-regex-dispatch", "02-schema-validation", "03-agent-loop"]);
    const plan = sprintPlan();
    expect(plan.map((d) => d.series)).toEqual(KATAS);
    for (let i = 1; i < plan.length; i++) expect(plan[i].byMinute).toBeGreaterThan(plan[i - 1].byMinute);
    expect(plan.at(-1)!.byMinute).toBe(SPRINT_MINUTES);
    expect(SPRINT_MINUTES).toBe(20);
  });

  test("the plan names each scheme, its kata and its minute, in both languages; a shorter session says what it leaves out", () => {
    const en = sprintPlanLines(20, "en");
    expect(en[0]).toContain("20-minute sprint");
    for (const [i, { series, byMinute }] of sprintPlan().entries()) expect(en[i + 1]).toContain(`${i + 1}. ${series}  by minute ${byMinute}: `);
    expect(en.join("\n")).not.toContain("beyond");
    expect(sprintPlanLines(10, "en").filter((l) => l.includes("beyond this session"))).toHaveLength(2);
    const zh = sprintPlanLines(20, "zh-CN").join("\n");
    expect(zh).toContain("20 分钟冲刺");
    expect(zh).toContain("第 6 分钟前");
    expect(zh).toContain("npm run hint -- 1");
  });

  test("--sprint takes no --kata and no --level", async () => {
    for (const extra of [["--kata", "1"], ["--level", "1"]]) {
      const r = await runMain("scripts/interview.ts", ["--sprint", ...extra]);
      expect(r.code, r.out).toBe(2);
      expect(r.out).toContain("--sprint takes katas 1-3 on their core tests");
    }
  });
});

describe("the sprint's report", () => {
  const summary: SessionSummary = {
    meta: { kata: `sprint: ${KATAS.join(", ")}`, sprint: true, startedAt: "2026-12-01T00:00:00.000Z", minutes: 20, series: KATAS, lang: "en" },
    points: [
      { atMs: 200_000, scores: { "01-regex-dispatch": 100, "02-schema-validation": null, "03-agent-loop": null }, passing: 6, total: 18, hints: 0 },
      { atMs: 700_000, scores: { "01-regex-dispatch": 100, "02-schema-validation": 50, "03-agent-loop": 0 }, passing: 9, total: 18, hints: 1 },
      { atMs: 1_200_000, scores: { "01-regex-dispatch": 100, "02-schema-validation": 50, "03-agent-loop": 0 }, passing: 9, total: 18, hints: 1, final: true },
    ],
    plan: sprintPlan(),
    failing: ["02-schema-validation > 6. Feedback for the model > one line per error"],
    questions: [],
    problems: [],
  };

  test("a line per kata over the session, each scheme's deadline, the one reached and when", () => {
    const html = htmlSummary(summary);
    expect(html).toContain("Core score per kata over the session");
    expect(html).toMatch(/<polyline[^>]*data-series="01-regex-dispatch" data-points="3"/);
    expect(html).toMatch(/<polyline[^>]*data-series="02-schema-validation" data-points="2"/);
    for (const kata of KATAS) expect(html).toContain(`data-deadline="${kata}"`);
    expect(html).toContain('data-stage="01-regex-dispatch" data-reached="200000"');
    expect(html).toContain('data-stage="02-schema-validation" data-reached=""');
    const text = terminalSummary(summary);
    expect(text).toContain("Final grade: 01-regex-dispatch 100  02-schema-validation 50  03-agent-loop 0  (9/18)");
    expect(text).toMatch(/01-regex-dispatch +planned by 6 minutes · reached after 3 min 20 s/);
    expect(htmlSummary({ ...summary, meta: { ...summary.meta, lang: "zh-CN" } })).toContain("各 kata 核心测试的得分变化");
  });
});

describe("a sprint, end to end", () => {
  test("round-style code: watch answers each kata at 100, Ctrl-C grades the three once more, the report shows every scheme reached", async () => {
    const root = mkdtempSync(join(work, "session-"));
    const hintState = join(root, "hint-state.json");
    writeFileSync(hintState, "{}");
    const impl = join(root, "impl");
    cpSync(join(PROJECT_ROOT, "spec", "fixtures", "minimal"), impl, { recursive: true });
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/interview.ts", "--sprint", "--impl", impl, "--out", join(root, "out")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, NO_COLOR: "1", TUK_HINT_STATE: hintState },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let interrupted = false;
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk;
      // Once every kata has answered at 100: Ctrl-C, as under npm (more than once).
      if (!interrupted && KATAS.every((kata) => new RegExp(`⏱ .*${kata} 100`).test(stdout.split("\n").filter((l) => l.includes("⏱")).at(-1) ?? ""))) {
        interrupted = true;
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGINT"), 100);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, stdout).toBe(0);
    expect(interrupted, stdout).toBe(true);
    expect(stdout).toContain("The 20-minute sprint");
    expect(stdout).toContain("Interrupted. Final grade...");
    expect(await untilNoProcessWithEnv(`KATA_IMPL=${impl}`, 10_000), "a watcher's warm runner, left running").toEqual([]);
    const out = join(root, "out");
    const [dir] = readdirSync(out);
    expect(dir).toMatch(/-sprint$/);
    const points = readPoints(join(out, dir, "session.jsonl"));
    expect(points.at(-1)).toEqual(expect.objectContaining({ final: true, scores: Object.fromEntries(KATAS.map((k) => [k, 100])), passing: coreCount, total: coreCount }));
    const html = readFileSync(join(out, dir, "report.html"), "utf8");
    for (const kata of KATAS) expect(html).toMatch(new RegExp(`data-stage="${kata}" data-reached="\\d+"`));
    expect(html).toContain("Nothing: every graded test passes.");
    // One follow-up question per scheme.
    expect((html.match(/<ol class="questions">(.*?)<\/ol>/s)?.[1].match(/<li>/g) ?? []).length).toBe(3);
  }, 180_000);
});

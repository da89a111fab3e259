// The stage plan (scripts/lib/stages.ts) is printed by tools and written in every kata README:
// the three must say the same thing, and the tasks it names must be those the specs test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { STAGES, stagesOf, type Stage } from "../lib/stages.ts";

interface ManifestTest { file: string; name: string }
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec/manifest.json"), "utf8")) as {
  katas: Record<string, { tests: ManifestTest[] }>;
};

/** "4. Dispatch > running calls > ... [L1 w1]" -> { task: 4, level: "L1" }. */
function taskAndLevel(name: string): { task: number; level: string } {
  const task = /^(\d+)\. /.exec(name);
  const level = / \[(L\d) w\d+\]$/.exec(name);
  if (!task || !level) throw new Error(`a graded test without "N. Task > ... [Ln wN]": ${name}`);
  return { task: Number(task[1]), level: level[1] };
}

/** The README's task numbers that have graded tests of this level, in order. */
function testedTasks(kata: string, level: string): number[] {
  const tasks = new Set<number>();
  for (const t of manifest.katas[kata].tests) {
    const parsed = taskAndLevel(t.name);
    if (parsed.level === level) tasks.add(parsed.task);
  }
  return [...tasks].sort((a, b) => a - b);
}

const README = [
  { file: "README.md", heading: "## Stages", unit: "min", l1Count: (n: number) => `of the ${n} L1 tests` },
  { file: "README.zh-CN.md", heading: "## 阶段", unit: "分钟", l1Count: (n: number) => `${n} 个 L1 测试` },
] as const;

/** The text of a README's Stages section: from its heading to the next "## " heading. */
function stagesSection(kata: string, file: string, heading: string): string {
  const text = readFileSync(join(PROJECT_ROOT, "katas", kata, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`katas/${kata}/${file} has no "${heading}" section`);
  const end = text.indexOf("\n## ", start + heading.length + 2);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The table rows "| L2 | +75 min | 1, 2, 3 | ..." as the data they state. */
function tableRows(section: string, unit: string): Pick<Stage, "level" | "minutes" | "tasks">[] {
  const row = new RegExp(`^\\| (L\\d) \\| \\+?(\\d+) ${unit} \\| ([\\d, ]+) \\|`, "gm");
  return [...section.matchAll(row)].map((m) => ({
    level: m[1] as Stage["level"],
    minutes: Number(m[2]),
    tasks: m[3].split(",").map((s) => Number(s.trim())),
  }));
}

describe("the stage plan", () => {
  test("every kata of spec/manifest.json has a plan, and only those", () => {
    expect(Object.keys(STAGES).sort()).toEqual(Object.keys(manifest.katas).sort());
    expect(stagesOf("01-regex-dispatch")).toBe(STAGES["01-regex-dispatch"]);
    expect(stagesOf("toString")).toBeUndefined();
  });

  for (const [kata, stages] of Object.entries(STAGES)) {
    describe(kata, () => {
      test("one stage per level, L1 to L3, each with minutes and a summary in both languages", () => {
        expect(stages.map((s) => s.level)).toEqual(["L1", "L2", "L3"]);
        for (const stage of stages) {
          expect(Number.isInteger(stage.minutes) && stage.minutes > 0, `${stage.level} minutes`).toBe(true);
          expect(stage.summary.en.trim(), `${stage.level} summary`).not.toBe("");
          expect(stage.summary["zh-CN"].trim(), `${stage.level} zh-CN summary`).not.toBe("");
        }
      });

      test("each stage names exactly the tasks that have tests of its level in spec/manifest.json", () => {
        for (const stage of stages) {
          expect(stage.tasks, `${stage.level} tasks`).toEqual(testedTasks(kata, stage.level));
        }
      });

      for (const readme of README) {
        test(`katas/${kata}/${readme.file}: its Stages table states the same minutes and tasks`, () => {
          const section = stagesSection(kata, readme.file, readme.heading);
          expect(tableRows(section, readme.unit)).toEqual(
            stages.map(({ level, minutes, tasks }) => ({ level, minutes, tasks })),
          );
          // The grade command that takes one stage at a time is named in the section.
          expect(section).toContain(`npm run grade -- --kata ${Number(kata.slice(0, 2))} --level 1`);
          // "17 of the 22 L1 tests": the total must be the manifest's, or the 20-minute advice is stale.
          const l1 = manifest.katas[kata].tests.filter((t) => taskAndLevel(t.name).level === "L1").length;
          expect(section.replace(/\s+/g, " ")).toContain(readme.l1Count(l1));
        });
      }
    });
  }
});

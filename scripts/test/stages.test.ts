// The stage plan (scripts/lib/stages.ts) is printed by tools and written in every kata README:
// the three must say the same thing, and the tasks it names must be those the specs test. The
// READMEs' tables are generated (npm run stages): a table edited by hand fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { main as writeStages } from "../stages.ts";
import { README_FILES, STAGES, stagesOf, stagesTable, TABLE_END, TABLE_START, tableBlock, withStagesTable, type Stage } from "../lib/stages.ts";

interface ManifestTest { file: string; name: string }
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, "spec/manifest.json"), "utf8")) as {
  katas: Record<string, { tests: ManifestTest[] }>;
};

/** "4. Dispatch > running calls > ... [L1 w1]" -> { task: 4, level: "L1" }. */
function taskAndLevel(name: string): { task: number; level: string } {
  const task = /^(\d+)\. /.exec(name);
  const level = / \[(L\d) w\d+(?: core)?\]$/.exec(name);
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
  { lang: "en", file: README_FILES.en, heading: "## Stages", unit: "min", l1Count: (n: number) => `of the ${n} L1 tests` },
  { lang: "zh-CN", file: README_FILES["zh-CN"], heading: "## 阶段", unit: "分钟", l1Count: (n: number) => `${n} 个 L1 测试` },
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
        test(`katas/${kata}/${readme.file}: its Stages table is the one npm run stages writes, inside the Stages section`, () => {
          const text = readFileSync(join(PROJECT_ROOT, "katas", kata, readme.file), "utf8");
          const { start, end } = tableBlock(text, `katas/${kata}/${readme.file}`);
          expect(text.slice(start, end), "the table differs from the plan's: edit scripts/lib/stages.ts, then npm run stages").toBe(stagesTable(kata, readme.lang));
          expect(withStagesTable(text, kata, readme.lang)).toBe(text);
          const section = stagesSection(kata, readme.file, readme.heading);
          expect(section, "the generated table lies in the Stages section").toContain(stagesTable(kata, readme.lang));
        });

        test(`katas/${kata}/${readme.file}: its Stages table states the same minutes and tasks`, () => {
          const section = stagesSection(kata, readme.file, readme.heading);
          expect(tableRows(section, readme.unit)).toEqual(
            stages.map(({ level, minutes, tasks }) => ({ level, minutes, tasks })),
          );
          // The grade command that takes one stage at a time is named in the section.
          expect(section).toContain(`npm run grade -- --kata ${Number(kata.slice(0, 2))} --level 1`);
          // "17 of the 22 L1 tests": the total must be the manifest's, or the advice on where to start is stale.
          const l1 = manifest.katas[kata].tests.filter((t) => taskAndLevel(t.name).level === "L1").length;
          expect(section.replace(/\s+/g, " ")).toContain(readme.l1Count(l1));
        });
      }
    });
  }
});

describe("npm run stages", () => {
  const plan = STAGES["01-regex-dispatch"];

  test("writes the table between the markers from the plan, and leaves the rest of the README as it is", () => {
    const readme = `# Kata\n\n## Stages\n\nIntro.\n\n${TABLE_START}\n| stale |\n${TABLE_END}\n\nAfter.\n`;
    const written = withStagesTable(readme, "01-regex-dispatch", "en");
    expect(written.startsWith("# Kata\n\n## Stages\n\nIntro.\n\n")).toBe(true);
    expect(written.endsWith("\n\nAfter.\n")).toBe(true);
    expect(written).toContain(`| L1 | ${plan[0].minutes} min | ${plan[0].tasks.join(", ")} | ${plan[0].write.en} | ${plan[0].canWait.en} |`);
    expect(written).toContain(`| L2 | +${plan[1].minutes} min | `);
    expect(withStagesTable(written, "01-regex-dispatch", "en")).toBe(written);
    expect(withStagesTable(readme, "01-regex-dispatch", "zh-CN")).toContain(`| L1 | ${plan[0].minutes} 分钟 | `);
  });

  test("a README without the markers, or with two tables, is an error, never a silent skip", () => {
    expect(() => withStagesTable("## Stages\n\n| L1 |\n", "01-regex-dispatch", "en")).toThrow(/no "<!-- stages:start -->"/);
    const twice = `\n${TABLE_START}\n${TABLE_END}\n`.repeat(2);
    expect(() => withStagesTable(twice, "01-regex-dispatch", "en")).toThrow(/more than one/);
    expect(() => stagesTable("toString", "en")).toThrow(/no stage plan/);
  });

  test("--check finds every table up to date (it writes nothing, and says which table is stale)", async () => {
    const log = console.log;
    const out: string[] = [];
    console.log = (...args: unknown[]) => void out.push(args.join(" "));
    try {
      expect(await writeStages(["--check"])).toBe(0);
    } finally {
      console.log = log;
    }
    expect(out).toEqual([]);
  });
});

// npm test: proves the product works. Every spec passes on the references and fails on the stubs;
// the grader's reports are valid; each known-bad implementation loses the tests naming its flaw.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TAG_PATTERN } from "../spec/support/graded.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { listKatas } from "./lib/grader/katas.ts";
import { buildManifest, loadManifest } from "./lib/grader/manifest.ts";

interface Check {
  name: string;
  run(): Promise<string[]>; // the problems found; none means the check passed
}

interface Exec {
  code: number | null;
  output: string;
}

function exec(command: string, args: string[], env: Record<string, string> = {}): Promise<Exec> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

const work = mkdtempSync(join(tmpdir(), "tuk-self-test-"));
const TSX = join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

interface GradeReport {
  version: number;
  status: string;
  score: number;
  tests: Array<{ name: string; status: string; message: string | null; x_kata: string }>;
  x_katas: Array<{ kata: string; score: number; problems: string[]; bank_score?: number; bank_total?: number }>;
}

async function grade(label: string, args: string[]): Promise<{ exec: Exec; report?: GradeReport; problems: string[] }> {
  const file = join(work, `${label}.json`);
  const result = await exec(process.execPath, [TSX, "scripts/grade.ts", ...args, "--json", file]);
  const problems: string[] = [];
  if (result.code !== 0) problems.push(`grader exited ${result.code}:\n${result.output.slice(-1500)}`);
  if (!existsSync(file)) return { exec: result, problems: [...problems, "no JSON report written"] };
  try {
    const report = JSON.parse(readFileSync(file, "utf8")) as GradeReport;
    if (report.version !== 3 || !Array.isArray(report.tests) || typeof report.score !== "number") problems.push("JSON report is not results.json v3 with a score");
    for (const t of report.tests) {
      if (typeof t.name !== "string" || !["pass", "fail", "error"].includes(t.status)) problems.push(`malformed test entry ${JSON.stringify(t).slice(0, 200)}`);
    }
    return { exec: result, report, problems };
  } catch (error) {
    return { exec: result, problems: [...problems, `JSON report does not parse: ${(error as Error).message}`] };
  }
}

const katas = listKatas();

const checks: Check[] = [
  {
    name: "typecheck (tsc --noEmit, strict), including stub/reference API parity",
    async run() {
      const r = await exec(process.execPath, [join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.json"]);
      return r.code === 0 ? [] : [r.output.slice(0, 3000)];
    },
  },
  {
    name: "the repository's own tools pass their tests (scripts/test/, vitest.scripts.config.ts)",
    async run() {
      const r = await exec(process.execPath, [join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.scripts.config.ts"], { NO_COLOR: "1" });
      return r.code === 0 ? [] : [r.output.slice(-3000)];
    },
  },
  {
    name: "spec/manifest.json lists exactly the current specs, every test tagged with a level and weight",
    async run() {
      const committed = loadManifest();
      if (!committed) return ["spec/manifest.json is missing: run npm run manifest"];
      const fresh = await buildManifest(katas);
      const problems: string[] = [];
      if (JSON.stringify(fresh) !== JSON.stringify(committed)) problems.push("spec/manifest.json is out of date: run npm run manifest and commit it");
      for (const [kata, entry] of Object.entries(fresh.katas)) {
        if (entry.tests.length === 0) problems.push(`${kata} has no graded test`);
        for (const t of entry.tests) if (!TAG_PATTERN.test(t.name)) problems.push(`${kata}: untagged test (use l1/l2/l3 from spec/support/graded.ts): ${t.name}`);
        for (const t of entry.bank) if (!TAG_PATTERN.test(t.name)) problems.push(`${kata}: untagged bank test: ${t.name}`);
        const names = [...entry.tests, ...entry.bank].map((t) => t.name);
        for (const dup of names.filter((n, i) => names.indexOf(n) !== i)) problems.push(`${kata}: two tests share the name "${dup}"`);
      }
      return problems;
    },
  },
  {
    name: "every kata has its READMEs, hints and Chinese twins, and its three folders",
    async run() {
      const problems: string[] = [];
      for (const kata of katas) {
        for (const file of ["README.md", "README.zh-CN.md", "HINTS.md", "HINTS.zh-CN.md", "index.ts"]) {
          if (!existsSync(join(PROJECT_ROOT, "katas", kata.id, file))) problems.push(`katas/${kata.id}/${file} is missing`);
        }
        if (!existsSync(join(PROJECT_ROOT, "solutions", kata.id, "index.ts"))) problems.push(`solutions/${kata.id}/index.ts is missing`);
        if (!existsSync(join(PROJECT_ROOT, "spec", kata.id, "api-parity.ts"))) problems.push(`spec/${kata.id}/api-parity.ts is missing`);
      }
      return problems;
    },
  },
  {
    name: "the references score 100: every spec, bank included, passes on solutions/",
    async run() {
      const { report, problems } = await grade("solutions", ["--impl", "solutions", "--bank"]);
      if (!report) return problems;
      for (const t of report.tests) if (t.status !== "pass") problems.push(`${t.name}: ${t.status}: ${(t.message ?? "").split("\n")[0]}`);
      for (const k of report.x_katas) {
        if (k.score !== 100) problems.push(`${k.kata} scores ${k.score}, not 100`);
        if (!k.bank_total) problems.push(`${k.kata} has no bank test`);
        else if (k.bank_score !== 100) problems.push(`${k.kata}: bank score ${k.bank_score}, not 100`);
      }
      return problems;
    },
  },
  {
    name: "the stubs score 0: every spec, bank included, fails on katas/, and the report is valid JSON",
    async run() {
      const { report, exec: r, problems } = await grade("stubs", ["--bank"]);
      if (!report) return problems;
      if (report.score !== 0) problems.push(`overall score ${report.score}, not 0`);
      for (const t of report.tests) if (t.status === "pass") problems.push(`passes on the stub, so it cannot tell a solution from none: ${t.name}`);
      if (report.tests.length === 0) problems.push("no test was graded");
      if (!/Next:/.test(r.output)) problems.push("the terminal report does not say what to do next");
      return problems;
    },
  },
  ...knownBadChecks(),
  ...sabotageChecks(),
  ...hardCodedChecks(),
];

interface KnownBad {
  kata: string;
  flaw: string;
  mustFail: string[];
}

function knownBadChecks(): Check[] {
  const root = join(PROJECT_ROOT, "spec", "fixtures", "known-bad");
  if (!existsSync(root)) return [];
  return readdirSync(root).sort().map((name): Check => {
    const dir = join(root, name);
    const expect = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as KnownBad;
    return {
      name: `known-bad "${name}" (${expect.flaw}) loses the tests that name its flaw`,
      async run() {
        const kata = katas.find((k) => k.id === expect.kata);
        if (!kata) return [`expect.json names an unknown kata ${expect.kata}`];
        const { report, problems } = await grade(`known-bad-${name}`, ["--impl", dir, "--kata", String(kata.number), "--timeout", "60"]);
        if (!report) return problems;
        for (const pattern of expect.mustFail) {
          const matched = report.tests.filter((t) => t.name.includes(pattern));
          if (matched.length === 0) problems.push(`mustFail "${pattern}" matches no test`);
          for (const t of matched) if (t.status === "pass") problems.push(`passes although it should lose it: ${t.name}`);
        }
        if (report.tests.every((t) => t.status !== "pass")) problems.push("passes nothing at all: a fixture should have one flaw, not be broken everywhere");
        return problems;
      },
    };
  });
}

interface Sabotage {
  sabotage: string;
  kata: string;
  unaffected: string;
  minScore: number;
  maxScore: number;
  problem: string;
}

function sabotageChecks(): Check[] {
  const root = join(PROJECT_ROOT, "spec", "fixtures", "sabotage");
  if (!existsSync(root)) return [];
  const manifest = loadManifest();
  return readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().map((name): Check => {
    const dir = join(root, name);
    const expect = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as Sabotage;
    return {
      name: `sabotage "${name}": ${expect.kata} graded as expected, ${expect.unaffected} untouched, the grader alive`,
      async run() {
        const numbers = [expect.kata, expect.unaffected].map((id) => katas.find((k) => k.id === id)?.number);
        if (numbers.includes(undefined)) return [`expect.json names an unknown kata`];
        const { report, problems } = await grade(`sabotage-${name}`, ["--impl", dir, "--kata", numbers.join(","), "--timeout", "45"]);
        if (!report) return problems;
        const sabotaged = report.x_katas.find((k) => k.kata === expect.kata);
        const untouched = report.x_katas.find((k) => k.kata === expect.unaffected);
        if (!sabotaged || !untouched) return [...problems, "a kata is missing from the report"];
        if (!(sabotaged.score >= expect.minScore && sabotaged.score <= expect.maxScore)) {
          problems.push(`${expect.kata} scores ${sabotaged.score}, expected ${expect.minScore}..${expect.maxScore}`);
        }
        if (untouched.score !== 100) problems.push(`${expect.unaffected} scores ${untouched.score}, not 100: the sabotage leaked`);
        for (const kata of [expect.kata, expect.unaffected]) {
          const expected = manifest?.katas[kata]?.tests.length ?? -1;
          const reported = report.tests.filter((t) => t.x_kata === kata).length;
          if (reported !== expected) problems.push(`${kata}: ${reported} tests in the report, the manifest has ${expected}`);
        }
        if (expect.problem && !sabotaged.problems.some((p) => new RegExp(expect.problem).test(p))) {
          problems.push(`no reported problem matches /${expect.problem}/: ${JSON.stringify(sabotaged.problems)}`);
        }
        return problems;
      },
    };
  });
}

interface HardCoded {
  kata: string;
  flaw: string;
  visibleMin: number;
  bankMax: number;
}

/** An implementation that hard-codes the visible examples: the bank must see through it. */
function hardCodedChecks(): Check[] {
  const dir = join(PROJECT_ROOT, "spec", "fixtures", "hard-coded");
  if (!existsSync(join(dir, "expect.json"))) return [];
  const expect = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as HardCoded;
  return [
    {
      name: `hard-coded fixture: ${expect.kata} scores >= ${expect.visibleMin} on the visible specs, <= ${expect.bankMax} on the bank`,
      async run() {
        const kata = katas.find((k) => k.id === expect.kata);
        if (!kata) return [`expect.json names an unknown kata ${expect.kata}`];
        const { report, problems } = await grade("hard-coded", ["--impl", dir, "--kata", String(kata.number), "--bank"]);
        if (!report) return problems;
        const figures = report.x_katas.find((k) => k.kata === expect.kata);
        if (!figures || figures.bank_score === undefined) return [...problems, "no bank score in the report"];
        if (figures.score < expect.visibleMin) problems.push(`visible score ${figures.score} < ${expect.visibleMin}: the fixture no longer fools the visible specs`);
        if (figures.bank_score > expect.bankMax) problems.push(`bank score ${figures.bank_score} > ${expect.bankMax}: the bank does not see through hard-coding`);
        return problems;
      },
    },
  ];
}

async function main(): Promise<number> {
  const started = Date.now();
  let passed = 0;
  let failed = 0;
  // Two at a time: the machine this must stay fast on has two cores.
  const queue = [...checks];
  const outcomes = new Map<Check, string[]>();
  const seconds = new Map<Check, string>();
  await Promise.all(
    [0, 1].map(async () => {
      for (let check = queue.shift(); check; check = queue.shift()) {
        const began = Date.now();
        try {
          outcomes.set(check, await check.run());
        } catch (error) {
          outcomes.set(check, [`crashed: ${(error as Error).stack ?? error}`]);
        }
        seconds.set(check, `${((Date.now() - began) / 1000).toFixed(1)} s`.padStart(7));
      }
    }),
  );
  for (const check of checks) {
    const problems = outcomes.get(check) ?? ["did not run"];
    if (problems.length === 0) {
      passed++;
      console.log(`ok   ${seconds.get(check)}  ${check.name}`);
    } else {
      failed++;
      console.log(`FAIL ${seconds.get(check)}  ${check.name}`);
      for (const p of problems.slice(0, 20)) console.log(`     - ${p.replace(/\n/g, "\n       ")}`);
      if (problems.length > 20) console.log(`     ... and ${problems.length - 20} more`);
    }
  }
  rmSync(work, { recursive: true, force: true });
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`self-test: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code));

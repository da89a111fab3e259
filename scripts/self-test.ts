// npm test: proves the product works. Every spec passes on the references and fails on the stubs;
// the grader's reports are valid; each known-bad implementation loses the tests naming its flaw.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { connect, createServer } from "node:net";
import { pathToFileURL } from "node:url";
import { TAG_PATTERN } from "../spec/support/test-tag.ts";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { listKatas, type Kata } from "./lib/grader/katas.ts";
import { fixtureImplRoot } from "./lib/fixtures/known-bad.ts";
import { chooseTests } from "./lib/grader/only.ts";
import { gradeKatas } from "./lib/grader/grade-katas.ts";
import { untrusted } from "./lib/grader/integrity.ts";
import { detectConfinement, LEVEL_WORDS, type ConfinementLevel } from "../spec/support/sandbox/confinement.ts";
import { splitTag } from "./lib/grader/test-result.ts";
import { SPRINT, SPRINT_MINUTES } from "./lib/sprint.ts";
import { hashFiles, loadManifest, type KataManifest, type ManifestTest } from "./lib/grader/manifest.ts";

const SELF_TEST_FLAGS: Record<string, FlagSpec> = {
  only: { value: true, repeatable: true, valueName: "TEXT", description: "run only the checks whose name contains TEXT (repeatable): a quicker loop while working on one fixture" },
};

interface Check {
  name: string;
  run(): Promise<string[]>; // the problems found; none means the check passed
  /** Roughly how long it takes (s): the longest start first, so that two lanes end together. */
  cost: number;
  /** Spends most of its time waiting on the grader's timers, not on a CPU: runs beside the two CPU lanes. */
  waits?: boolean;
  /**
   * Loads every core on purpose (busy processes): runs alone, after every other check, so that the
   * load it makes is the load it means to test, and no other check's timing pays for it.
   */
  alone?: boolean;
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

/** The self-test's scratch folder, made by the first check that needs one (`--help` makes none), removed at the end. */
let scratchDir: string | undefined;
const work = (): string => (scratchDir ??= mkdtempSync(join(tmpdir(), "tuk-self-test-")));
// tsx's loader, straight into the one process: its cli.mjs would start a second node for each grade.
const TSX_LOADER = pathToFileURL(join(PROJECT_ROOT, "node_modules", "tsx", "dist", "esm", "index.mjs")).href;

interface GradeReport {
  version: number;
  status: string;
  score: number;
  x_seed: number;
  tests: Array<{ name: string; status: string; message: string | null; x_kata: string; x_core?: boolean }>;
  x_core_only?: boolean;
  x_katas: Array<{
    kata: string;
    score: number;
    problems: string[];
    bank_score?: number;
    bank_total?: number;
    collected_matches_manifest?: boolean;
    unlisted_tests?: string[];
    collected_first_difference?: string;
    integrity?: { status: string; refused: string[]; notes: string[] };
  }>;
}

/**
 * The run limit of a grade here, per kata, unless the check sets its own (a sabotage's or a probe's
 * limit is what it tests). npm test runs several grades at once on two cores, where a correct
 * kata's grade takes many times its idle time (the references' grade, bank included: 27 s alone,
 * 191 s beside the other checks), so the candidate's default (60 s) is no limit for it here.
 */
const SELF_TEST_TIMEOUT_S = 300;

async function grade(label: string, args: string[]): Promise<{ exec: Exec; report?: GradeReport; problems: string[] }> {
  const file = join(work(), `${label}.json`);
  const limit = args.includes("--timeout") ? [] : ["--timeout", String(SELF_TEST_TIMEOUT_S)];
  const result = await exec(process.execPath, ["--import", TSX_LOADER, "scripts/grade.ts", ...args, ...limit, "--json", file]);
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
const manifest = loadManifest();

/**
 * The fixtures' grades (known-bad, sabotage, probe) run one test process at a time, so that each
 * kata's spec files share one process instead of starting one per core: npm test keeps every core
 * busy with its other checks anyway, and a process start costs about 0.2 s of CPU. A hang's grade
 * keeps one per core (its wait would hold up the kata's other files), and so do the grades of the
 * references and the stubs: a candidate's grade.
 */
const FIXTURE_TEST_PROCESSES = 1;
const ONE_TEST_PROCESS = ["--jobs", String(FIXTURE_TEST_PROCESSES)];

/** Sabotage that hangs: its grade mostly waits for the grader's stall watch or vitest's test timeout. */
const HANGS = new Set(["infinite-loop", "never-settles"]);

/** Once, for two checks: the references' grade is also the run that lists every test of the specs. */
let referencesGrade: ReturnType<typeof grade> | undefined;
const gradeReferences = () => (referencesGrade ??= grade("solutions", ["--impl", "solutions", "--bank"]));

const allChecks: Check[] = [
  {
    name: "typecheck (tsc --noEmit, strict), including stub/reference API parity",
    cost: 7,
    async run() {
      // Incremental: tsc re-checks only the files that changed since the last run (and those that
      // depend on them), from its own record in node_modules/.cache; its verdict is a full check's.
      const buildInfo = join(PROJECT_ROOT, "node_modules", ".cache", "tool-use-katas", "self-test.tsbuildinfo");
      const tsc = join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
      const r = await exec(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json", "--incremental", "--tsBuildInfoFile", buildInfo]);
      return r.code === 0 ? [] : [r.output.slice(0, 3000)];
    },
  },
  {
    name: "the repository's own tools pass their tests (scripts/test/, vitest.scripts.config.ts)",
    cost: 20,
    waits: true, // most of it is spent waiting on child processes (pack-candidate, watch)
    async run() {
      const r = await exec(process.execPath, [join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.scripts.config.ts"], { NO_COLOR: "1" });
      if (r.code === 0) return [];
      // vitest's own account of each failure (its message and diff), then its summary.
      const failures = r.output.indexOf("Failed Tests");
      return [failures === -1 ? r.output.slice(-3000) : r.output.slice(failures, failures + 5000)];
    },
  },
  {
    name: "spec/manifest.json lists exactly the current specs, every test tagged with a level and weight",
    cost: 0,
    async run() {
      const committed = manifest;
      if (!committed) return ["spec/manifest.json is missing: run npm run manifest"];
      const problems: string[] = [];
      const outOfDate = (why: string) => problems.push(`spec/manifest.json is out of date (${why}): run npm run manifest and commit it`);
      // The spec files are the ones it was made from (sha256 of spec/NN-name/** and spec/support/**) ...
      if (JSON.stringify(Object.keys(committed.katas)) !== JSON.stringify(katas.map((k) => k.id))) outOfDate("not the same katas");
      if (JSON.stringify(hashFiles(join(PROJECT_ROOT, "spec", "support"))) !== JSON.stringify(committed.support)) outOfDate("spec/support/ changed");
      for (const kata of katas) {
        const entry = committed.katas[kata.id];
        if (entry && JSON.stringify(hashFiles(join(PROJECT_ROOT, "spec", kata.id))) !== JSON.stringify(entry.files)) outOfDate(`spec/${kata.id}/ changed`);
      }
      // ... and its lists are the tests those specs hold now (data files included), in their order: the
      // references' run, bank included, collects every test exactly as `npm run manifest` lists them.
      const { report } = await gradeReferences();
      if (!report) problems.push("the references' grade wrote no report, so the specs' tests could not be listed");
      for (const kata of katas) {
        const figures = report?.x_katas.find((k) => k.kata === kata.id);
        if (!report) break;
        if (!figures) outOfDate(`${kata.id} was not graded`);
        else if (figures.collected_matches_manifest !== true) {
          const unlisted = figures.unlisted_tests ?? [];
          outOfDate(`${kata.id}: the specs do not hold exactly its tests, in its order${unlisted.length > 0 ? `; not listed: ${unlisted.slice(0, 3).join("; ")}` : ""}; ${figures.collected_first_difference ?? ""}`);
        }
      }
      for (const [kata, entry] of Object.entries(committed.katas)) {
        if (entry.tests.length === 0) problems.push(`${kata} has no graded test`);
        for (const t of entry.tests) if (!TAG_PATTERN.test(t.name)) problems.push(`${kata}: untagged test (use l1/l2/l3 from spec/support/graded.ts): ${t.name}`);
        for (const t of entry.bank) if (!TAG_PATTERN.test(t.name)) problems.push(`${kata}: untagged bank test: ${t.name}`);
        const names = [...entry.tests, ...entry.bank].map((t) => t.name);
        for (const dup of names.filter((n, i) => names.indexOf(n) !== i)) problems.push(`${kata}: two tests share the name "${dup}"`);
        // The sprint's katas each have a handful of core tests, all visible: a candidate rehearses on them.
        const core = entry.tests.filter((t) => splitTag(t.name).core).length;
        if (SPRINT.some((s) => s.kata === kata) && (core < 4 || core > 8)) problems.push(`${kata}: ${core} core tests; the sprint wants 4 to 8`);
        for (const t of entry.bank) if (splitTag(t.name).core) problems.push(`${kata}: a bank test marked core (the sprint's tests are visible): ${t.name}`);
      }
      if (SPRINT.reduce((n, s) => n + s.minutes, 0) !== SPRINT_MINUTES) problems.push(`the sprint's schemes do not add up to its ${SPRINT_MINUTES} minutes`);
      return problems;
    },
  },
  {
    name: "every kata has its READMEs, hints and Chinese twins, and its three folders",
    cost: 0,
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
    cost: 14,
    async run() {
      const { report, problems: found } = await gradeReferences();
      const problems = [...found];
      if (!report) return problems;
      for (const t of report.tests) if (t.status !== "pass") problems.push(`${t.name}: ${t.status}: ${(t.message ?? "").split("\n")[0]}`);
      for (const k of report.x_katas) {
        if (k.score !== 100) problems.push(`${k.kata} scores ${k.score}, not 100`);
        if (k.integrity?.status !== "ok") problems.push(`${k.kata}: integrity ${k.integrity?.status}, not ok: ${JSON.stringify(k.integrity)}`);
        if (!k.bank_total) problems.push(`${k.kata} has no bank test`);
        else if (k.bank_score !== 100) problems.push(`${k.kata}: bank score ${k.bank_score}, not 100`);
      }
      return problems;
    },
  },
  {
    name: "the stubs score 0: every spec, bank included, fails on katas/, and the report is valid JSON",
    cost: 9,
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
  { ...(await import("./lib/self-test/load-check.ts")).loadCheck(grade), alone: true },
  { ...(await import("./lib/self-test/compare-check.ts")).compareCheck(), alone: true },
  ...knownBadChecks(),
  ...sabotageChecks(),
  ...probeChecks(),
  ...honestChecks(),
  ...hardCodedChecks(),
  minimalCheck(),
];

interface KnownBad {
  kata: string;
  flaw: string;
  mustFail: string[];
  /** Text that some failing test's message must hold (the input a failed deep equality names). */
  failuresShow?: string[];
}

interface KnownBadFixture {
  name: string;
  dir: string;
  expect: KnownBad;
}

/**
 * The known-bad fixtures, graded in batches of one fixture per kata: a batch is one grade (one
 * test run, each kata in processes of its own, as a candidate's three katas are), so 14 fixtures
 * cost 5 runs instead of 14. One check per batch; each problem names its fixture.
 */
function knownBadChecks(): Check[] {
  const root = join(PROJECT_ROOT, "spec", "fixtures", "known-bad");
  if (!existsSync(root)) return [];
  const fixtures: KnownBadFixture[] = readdirSync(root).sort().map((name) => {
    const dir = join(root, name);
    return { name, dir, expect: JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as KnownBad };
  });
  const batches: KnownBadFixture[][] = [];
  for (const kata of katas) {
    fixtures.filter((f) => f.expect.kata === kata.id).forEach((fixture, i) => (batches[i] ??= []).push(fixture));
  }
  const strays = fixtures.filter((f) => !katas.some((k) => k.id === f.expect.kata));
  if (strays.length > 0) batches.push(strays);
  return batches.map((batch, i): Check => ({
    name: `known-bad ${batch.map((f) => `"${f.name}"`).join(", ")} (batch ${i + 1}): each loses the tests that name its flaw, and passes some other L1 test`,
    cost: 2 + batch.length,
    run: () => gradeKnownBad(batch, i),
  }));
}

async function gradeKnownBad(batch: KnownBadFixture[], index: number): Promise<string[]> {
  const problems: string[] = [];
  const impl = join(work(), "known-bad", `batch-${index + 1}`);
  const graded: Array<{ fixture: KnownBadFixture; kata: Kata; entry: KataManifest; flawed: ManifestTest[]; controls: string[]; chosen: ReadonlySet<string> }> = [];
  for (const fixture of batch) {
    const { expect } = fixture;
    const say = (problem: string) => problems.push(`${fixture.name}: ${problem}`);
    const kata = katas.find((k) => k.id === expect.kata);
    if (!kata) {
      say(`expect.json names an unknown kata ${expect.kata}`);
      continue;
    }
    const entry = manifest?.katas[kata.id];
    if (!entry) {
      say(`spec/manifest.json has no ${kata.id}`);
      continue;
    }
    // Graded on the tests it must lose (as the report names them, "NN-kata > task > test"), and,
    // to show it has one flaw and is not broken everywhere, on the basic-use (L1) tests of the same
    // spec files: it must pass one of those. The grade loads only these spec files.
    const reported = (name: string) => `${kata.id} > ${splitTag(name).name}`;
    const flawed = entry.tests.filter((t) => expect.mustFail.some((p) => reported(t.name).includes(p)));
    const files = new Set(flawed.map((t) => t.file));
    const controls = entry.tests.filter((t) => files.has(t.file) && !flawed.includes(t) && splitTag(t.name).level === "L1").map((t) => reported(t.name));
    try {
      // Each fixture makes only its own kata's folder, so a batch's fixtures share one impl root.
      fixtureImplRoot(fixture.dir, impl);
      const chosen = chooseTests(manifest!, [kata], [...expect.mustFail, ...controls], false).get(kata.id);
      if (!chosen) throw new Error("no test of the manifest matches its mustFail patterns");
      graded.push({ fixture, kata, entry, flawed, controls, chosen });
    } catch (error) {
      say((error as Error).message);
    }
  }
  if (graded.length === 0) return problems;
  // Graded from here rather than through the grade command: the same grading (its own vitest
  // child, watchdog, verdicts), without a tsx start-up for each batch.
  const workDir = join(work(), "known-bad-runs", `batch-${index + 1}`);
  mkdirSync(workDir, { recursive: true });
  const seed = Math.floor(Math.random() * 2 ** 31);
  const runs = await gradeKatas(graded.map((g) => ({ kata: g.kata, manifest: g.entry, only: g.chosen })), { implRoot: impl, seed, timeoutMs: 60_000, workDir, includeBank: false, maxWorkers: FIXTURE_TEST_PROCESSES });
  for (const [i, { fixture, kata, flawed, controls }] of graded.entries()) {
    const run = runs[i];
    const found: string[] = [];
    const report = { tests: run.tests.map((t) => ({ name: `${kata.id} > ${t.name}`, status: t.status })) };
    if (untrusted(run.integrity)) found.push(`an honest flaw was taken for a refused import: ${JSON.stringify(run.integrity)}`);
    for (const pattern of fixture.expect.mustFail) {
      const matched = report.tests.filter((t) => t.name.includes(pattern));
      if (matched.length === 0) found.push(`mustFail "${pattern}" matches no test`);
      for (const t of matched) if (t.status === "pass") found.push(`passes although it should lose it: ${t.name}`);
    }
    for (const text of fixture.expect.failuresShow ?? []) {
      if (!run.tests.some((t) => t.status !== "pass" && t.message?.includes(text))) found.push(`no failing test's message shows ${JSON.stringify(text)}`);
    }
    const reported = new Set(report.tests.map((t) => t.name));
    for (const t of flawed) if (!reported.has(`${kata.id} > ${splitTag(t.name).name}`)) found.push(`not graded: ${kata.id} > ${splitTag(t.name).name}`);
    if (controls.length === 0) found.push("the spec files of its flaw hold no other L1 test to show it is not broken everywhere");
    else if (!report.tests.some((t) => controls.includes(t.name) && t.status === "pass")) {
      found.push(`passes none of the ${controls.length} other L1 tests of the spec files of its flaw: a fixture should have one flaw, not be broken everywhere`);
    }
    if (found.length > 0) found.push(...run.problems, `seed ${seed}: npm run grade -- --impl ${relative(PROJECT_ROOT, fixture.dir)} --kata ${kata.number} --seed ${seed}`);
    problems.push(...found.map((p) => `${fixture.name}: ${p}`));
  }
  return problems;
}

interface Sabotage {
  sabotage: string;
  kata: string;
  /** A second sabotaged kata of the same folder, graded whole beside the first, held to the same range. */
  also?: string;
  unaffected: string;
  minScore: number;
  maxScore: number;
  problem: string;
  /** The whole grade must end within this many seconds (a hang at import waits out the load limit once per test process, not once per spec file). */
  maxSeconds?: number;
  /** The grade's --timeout in seconds (45 unless given). */
  timeout?: number;
}

function sabotageChecks(): Check[] {
  const root = join(PROJECT_ROOT, "spec", "fixtures", "sabotage");
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().map((name): Check => {
    const dir = join(root, name);
    const expect = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as Sabotage;
    const sabotagedKatas = [expect.kata, ...(expect.also ? [expect.also] : [])];
    return {
      name: `sabotage "${name}": ${sabotagedKatas.join(" and ")} graded as expected, ${expect.unaffected} untouched, the grader alive${expect.maxSeconds ? `, within ${expect.maxSeconds} s` : ""}`,
      ...(HANGS.has(name) ? { cost: 30, waits: true } : { cost: 8 }),
      async run() {
        // The sabotaged kata is graded whole, as a candidate's would be.
        const began = Date.now();
        const graded = await gradeBeside(`sabotage-${name}`, dir, { hostile: sabotagedKatas, unaffected: expect.unaffected }, "whole", ["--timeout", String(expect.timeout ?? 45), ...(HANGS.has(name) ? [] : ONE_TEST_PROCESS)]);
        const seconds = (Date.now() - began) / 1000;
        if (!graded.report) return graded.problems;
        const { problems } = graded;
        for (const sabotaged of graded.hostile) {
          const say = (problem: string) => problems.push(`${sabotaged.kata}: ${problem}`);
          if (untrusted(sabotaged.integrity)) say(`a crash was taken for a refused import: ${JSON.stringify(sabotaged.integrity)}`);
          if (!(sabotaged.score >= expect.minScore && sabotaged.score <= expect.maxScore)) say(`scores ${sabotaged.score}, expected ${expect.minScore}..${expect.maxScore}`);
          if (expect.problem && !sabotaged.problems.some((p) => new RegExp(expect.problem).test(p))) {
            say(`no reported problem matches /${expect.problem}/: ${JSON.stringify(sabotaged.problems)}`);
          }
        }
        if (expect.maxSeconds && seconds > expect.maxSeconds) problems.push(`the grade took ${seconds.toFixed(1)} s, more than ${expect.maxSeconds} s`);
        return problems;
      },
    };
  });
}

interface Beside {
  report?: GradeReport;
  /** The grader's terminal output. */
  output: string;
  problems: string[];
  hostile: Array<GradeReport["x_katas"][number]>;
}

/**
 * Grades hostile implementations of some katas beside an honest one, in one run: each hostile kata
 * (whole, or its L1 tests), and the honest kata on the L1 tests of its spec file with the most of
 * them, which must come out untouched (100, every test reported): that is enough to show the
 * hostile ones cost only themselves, for one test process rather than one per spec file.
 */
async function gradeBeside(label: string, dir: string, expect: { hostile: string[]; unaffected: string }, scope: "whole" | "L1", extra: string[]): Promise<Beside> {
  const none: Beside = { problems: [], hostile: [], output: "" };
  const all = [...expect.hostile, expect.unaffected];
  const numbers = all.map((id) => katas.find((k) => k.id === id)?.number);
  if (numbers.includes(undefined)) return { ...none, problems: ["expect.json names an unknown kata"] };
  const l1Of = (kata: string) => (manifest?.katas[kata]?.tests ?? []).filter((t) => splitTag(t.name).level === "L1");
  const l1 = l1Of(expect.unaffected);
  const count = (file: string) => l1.filter((t) => t.file === file).length;
  const richest = l1.map((t) => t.file).reduce<string | undefined>((best, file) => (best === undefined || count(file) > count(best) ? file : best), undefined);
  const untouchedTests = l1.filter((t) => t.file === richest);
  const hostileTests = (kata: string) => (scope === "whole" ? [`${kata} > `] : l1Of(kata).map((t) => `${kata} > ${splitTag(t.name).name}`));
  const only = [...expect.hostile.flatMap(hostileTests), ...untouchedTests.map((t) => `${expect.unaffected} > ${splitTag(t.name).name}`)].flatMap((p) => ["--only", p]);
  const { report, problems, exec: result } = await grade(label, ["--impl", dir, "--kata", numbers.join(","), ...extra, ...only]);
  if (!report) return { ...none, output: result.output, problems };
  const figures = all.map((kata) => report.x_katas.find((k) => k.kata === kata));
  if (figures.includes(undefined)) return { ...none, output: result.output, problems: [...problems, "a kata is missing from the report"] };
  const untouched = figures.at(-1)!;
  if (untouchedTests.length === 0) problems.push(`${expect.unaffected} has no L1 test to grade beside it`);
  if (untouched.score !== 100) problems.push(`${expect.unaffected} scores ${untouched.score}, not 100: the hostile kata cost it`);
  const expectedCount = (kata: string) => (kata === expect.unaffected ? untouchedTests.length : scope === "whole" ? (manifest?.katas[kata]?.tests.length ?? -1) : hostileTests(kata).length);
  for (const kata of all) {
    const reported = report.tests.filter((t) => t.x_kata === kata).length;
    if (reported !== expectedCount(kata)) problems.push(`${kata}: ${reported} tests in the report, expected ${expectedCount(kata)}`);
  }
  return { report, output: result.output, problems, hostile: figures.slice(0, -1) as Beside["hostile"] };
}

interface Probe {
  probe: string;
  kata: string;
  unaffected: string;
  /** How the grader must catch it: refused (the kata rule on imports) or zero (it simply fails). */
  caught: "refused" | "zero";
  problem?: string;
  /** Graded with the bank as well: a probe that reads for the bank's tests. */
  bank?: boolean;
  /** A port on 127.0.0.1 the self-test listens on during the grade: it must get no connection. */
  listen?: number;
  /** A file the probe's own process would leave behind if it ever ran. */
  marker?: string;
  /** Run only where the sandbox has this level of confinement: where it has less, the probe would harm this machine. */
  needs?: ConfinementLevel;
}

/** Terminal control codes a probe prints to draw over the report: none may reach the interviewer's terminal raw. */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Whether something on this machine accepts connections on a port of 127.0.0.1. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Listens on a port of 127.0.0.1 and counts the connections that reach it. */
async function listenCounting(port: number): Promise<{ connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", () => resolve()));
  return { connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Probes (spec/fixtures/probe/): code a candidate might hand in to score what it does not earn,
 * each graded as written, as a candidate's code is, beside the reference of another kata. Each
 * must score 0, be caught the way its expect.json says, leave the other kata untouched and this
 * machine as it was: no connection to a listener, no inspector opened, no file left behind, no
 * control code on the terminal.
 */
function probeChecks(): Check[] {
  const root = join(PROJECT_ROOT, "spec", "fixtures", "probe");
  if (!existsSync(root)) return [];
  const level = detectConfinement().level;
  const rank = (l: ConfinementLevel) => ["permissions", "other-user", "namespaces"].indexOf(l);
  return readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().map((name): Check => {
    const dir = join(root, name);
    const expect = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as Probe;
    if (expect.needs && rank(level) < rank(expect.needs)) {
      // Said in the check's name, so that every run shows what this machine could not prove.
      return { name: `probe "${name}": NOT RUN, it needs a sandbox with ${expect.needs} and this machine gives "${level}" (${LEVEL_WORDS[level]})`, cost: 0, run: async () => [] };
    }
    return {
      name: `probe "${name}": ${expect.kata} scores 0 (${expect.caught}), ${expect.unaffected} untouched, nothing outside the sandbox reached`,
      // A marker check waits 4 s for a process to show itself: it mostly waits, beside the CPU lanes.
      ...(expect.marker ? { cost: 6, waits: true } : { cost: 4 }),
      async run() {
        if (expect.marker) rmSync(expect.marker, { force: true });
        const inspectorBefore = await listening(INSPECTOR_PORT);
        // The probe's kata beside the reference of another, in one checkout, as a candidate would hand it in.
        const impl = join(work(), "probe", name);
        cpSync(join(dir, expect.kata), join(impl, expect.kata), { recursive: true });
        cpSync(join(PROJECT_ROOT, "solutions", expect.unaffected), join(impl, expect.unaffected), { recursive: true });
        const listener = expect.listen ? await listenCounting(expect.listen) : undefined;
        let graded: Beside;
        try {
          graded = await gradeBeside(`probe-${name}`, impl, { hostile: [expect.kata], unaffected: expect.unaffected }, "L1", ["--timeout", "20", ...ONE_TEST_PROCESS, ...(expect.bank ? ["--bank"] : [])]);
        } finally {
          await listener?.close();
        }
        const { problems } = graded;
        if (listener && listener.connections() > 0) problems.push(`${listener.connections()} connection(s) reached 127.0.0.1:${expect.listen} from the graded code`);
        if (!inspectorBefore && (await listening(INSPECTOR_PORT))) problems.push(`a process opened an inspector on ${INSPECTOR_PORT} during the grade`);
        if (RAW_CONTROL.test(graded.output.replace(/\n|\t/g, ""))) problems.push(`the terminal report holds a raw control code: ${JSON.stringify(graded.output.match(new RegExp(`.{0,40}${RAW_CONTROL.source}.{0,40}`))?.[0])}`);
        if (!graded.report) return problems;
        for (const t of graded.report.tests) {
          if (RAW_CONTROL.test((t.message ?? "").replace(/\n|\t/g, ""))) problems.push(`the JSON report's message of "${t.name}" holds a raw control code`);
        }
        const [probed] = graded.hostile;
        if (probed.score !== 0) problems.push(`${expect.kata} scores ${probed.score}, not 0: the probe raised its grade`);
        const status = probed.integrity?.status ?? "ok";
        const wanted = expect.caught === "zero" ? ["ok", "notes"] : [expect.caught];
        if (!wanted.includes(status)) problems.push(`integrity status ${status}, expected ${wanted.join(" or ")}`);
        if (expect.problem && !probed.problems.some((p) => new RegExp(expect.problem!).test(p))) {
          problems.push(`no reported problem matches /${expect.problem}/: ${JSON.stringify(probed.problems).slice(0, 600)}`);
        }
        if (expect.marker) {
          // Long enough for a process started during the run to have done its work.
          await new Promise((resolve) => setTimeout(resolve, 4000));
          if (existsSync(expect.marker)) problems.push(`${expect.marker} exists: the graded code wrote outside its sandbox, or a process of it outlived its run`);
        }
        return problems;
      },
    };
  });
}

/** A Node process's inspector listens here once it gets SIGUSR1. */
const INSPECTOR_PORT = 9229;

/**
 * Honest code the grader must never punish (spec/fixtures/honest/): the reference written with the
 * files and names a suspicious grader might refuse or flag. Every kata scores 100 on its visible
 * specs, with no refusal and no note. Not the bank: what punishes such code (a refusal, a note, a
 * tsconfig the runner cannot read) comes before any spec runs and does not depend on which specs
 * run, and the reference's behaviour under the bank is the references' check's; grading it twice
 * cost CI two minutes of its ten.
 */
function honestChecks(): Check[] {
  const root = join(PROJECT_ROOT, "spec", "fixtures", "honest");
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().map((name): Check => ({
    name: `honest "${name}": every kata it holds scores 100 on its visible specs, with no refusal and no note`,
    cost: 14,
    async run() {
      const dir = join(root, name);
      const held = katas.filter((k) => existsSync(join(dir, k.id)));
      if (held.length === 0) return ["the fixture holds no kata folder"];
      const { report, problems } = await grade(`honest-${name}`, ["--impl", dir, "--kata", held.map((k) => k.number).join(","), ...ONE_TEST_PROCESS]);
      if (!report) return problems;
      for (const k of report.x_katas) {
        if (k.score !== 100) problems.push(`${k.kata} scores ${k.score}, not 100: ${JSON.stringify(k.problems).slice(0, 400)}`);
        if (k.integrity?.status !== "ok") problems.push(`${k.kata}: integrity ${k.integrity?.status}, not ok: ${JSON.stringify(k.integrity)}`);
      }
      for (const t of report.tests) if (t.status !== "pass") problems.push(`${t.name}: ${t.status}: ${(t.message ?? "").split("\n")[0]}`);
      return problems.slice(0, 30);
    },
  }));
}


/**
 * Code written the way the 20-minute round writes it (spec/fixtures/minimal/): it must pass every
 * core test of the sprint's katas, or the sprint asks for more than the round can hold; and it
 * must not pass their L1 stage, or the core tests would be the stage itself.
 */
function minimalCheck(): Check {
  const dir = join(PROJECT_ROOT, "spec", "fixtures", "minimal");
  const numbers = SPRINT.map((s) => katas.find((k) => k.id === s.kata)?.number).join(",");
  return {
    name: "minimal fixture: round-style code passes every core test of the sprint's katas, and not their L1 stage",
    cost: 4,
    async run() {
      const core = await grade("minimal-core", ["--impl", dir, "--kata", numbers, "--core", ...ONE_TEST_PROCESS]);
      const l1 = await grade("minimal-l1", ["--impl", dir, "--kata", numbers, "--level", "1", ...ONE_TEST_PROCESS]);
      const problems = [...core.problems, ...l1.problems];
      if (!core.report || !l1.report) return problems;
      if (core.report.x_core_only !== true) problems.push("a --core grade's results.json does not say x_core_only");
      for (const t of core.report.tests) {
        if (t.status !== "pass") problems.push(`core test not passed: ${t.name}: ${(t.message ?? "").split("\n")[0]}`);
        if (t.x_core !== true) problems.push(`a --core grade graded a test not marked core: ${t.name}`);
      }
      for (const k of l1.report.x_katas) if (k.score === 100) problems.push(`${k.kata}: round-style code passes the whole L1 stage, so its core is no smaller than the stage`);
      return problems.slice(0, 30);
    },
  };
}

interface HardCoded {
  kata: string;
  flaw: string;
  visibleMin: number;
  bankMax: number;
}

/** Each test's outcome when vitest runs `kata`'s specs (bank included) with the code in this process, as `npm run spec` does. */
async function inProcessOutcomes(implRoot: string, kata: Kata, seed: number): Promise<Map<string, "pass" | "fail"> | string> {
  const file = join(work(), `in-process-${kata.id}.json`);
  const vitest = join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");
  const result = await exec(process.execPath, [vitest, "run", `spec/${kata.id}`, "--reporter=json", `--outputFile=${file}`], { KATA_IMPL: implRoot, GRADE_BANK: "1", FC_SEED: String(seed) });
  if (!existsSync(file)) return `the in-process run wrote no report (exit ${result.code}): ${result.output.slice(-600)}`;
  const report = JSON.parse(readFileSync(file, "utf8")) as { testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }> }> };
  const outcomes = new Map<string, "pass" | "fail">();
  for (const f of report.testResults) {
    for (const t of f.assertionResults) outcomes.set([kata.id, ...t.ancestorTitles, splitTag(t.title).name].join(" > "), t.status === "passed" ? "pass" : "fail");
  }
  return outcomes;
}

/** An implementation that hard-codes the visible examples: the bank must see through it. */
function hardCodedChecks(): Check[] {
  const dir = join(PROJECT_ROOT, "spec", "fixtures", "hard-coded");
  if (!existsSync(join(dir, "expect.json"))) return [];
  const expect = JSON.parse(readFileSync(join(dir, "expect.json"), "utf8")) as HardCoded;
  return [
    {
      name: `hard-coded fixture: ${expect.kata} scores >= ${expect.visibleMin} on the visible specs, <= ${expect.bankMax} on the bank, and every test's verdict equals the in-process run's`,
      cost: 12,
      async run() {
        const kata = katas.find((k) => k.id === expect.kata);
        if (!kata) return [`expect.json names an unknown kata ${expect.kata}`];
        const { report, problems } = await grade("hard-coded", ["--impl", dir, "--kata", String(kata.number), "--bank"]);
        if (!report) return problems;
        const figures = report.x_katas.find((k) => k.kata === expect.kata);
        if (!figures || figures.bank_score === undefined) return [...problems, "no bank score in the report"];
        if (figures.integrity?.status === "refused") problems.push(`hard-coding was taken for a refused import: ${JSON.stringify(figures.integrity)}`);
        if (figures.score < expect.visibleMin) problems.push(`visible score ${figures.score} < ${expect.visibleMin}: the fixture no longer fools the visible specs`);
        if (figures.bank_score > expect.bankMax) problems.push(`bank score ${figures.bank_score} > ${expect.bankMax}: the bank does not see through hard-coding`);
        // The sandbox changes where the code runs, never a verdict: test by test, the grade equals
        // vitest running the same specs with the code in its own process, on an implementation
        // that passes some tests and fails others (the same seed, so the same generated inputs).
        const inProcess = await inProcessOutcomes(fixtureImplRoot(dir, join(work(), "hard-coded-in-process")), kata, report.x_seed);
        if (typeof inProcess === "string") return [...problems, inProcess];
        const graded = report.tests.filter((t) => t.x_kata === kata.id);
        const mixed = new Set(graded.map((t) => (t.status === "pass" ? "pass" : "fail")));
        if (mixed.size < 2) problems.push("the fixture passes all or none of its tests: the comparison would prove nothing");
        if (inProcess.size !== graded.length) problems.push(`the in-process run holds ${inProcess.size} tests, the grade ${graded.length}`);
        for (const t of graded) {
          const there = inProcess.get(t.name);
          const here = t.status === "pass" ? "pass" : "fail";
          if (there === undefined) problems.push(`not in the in-process run: ${t.name}`);
          else if (there !== here) problems.push(`${t.name}: ${here} in the sandbox, ${there} in process`);
        }
        return problems;
      },
    },
  ];
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help")) {
    console.log(usage("npm test [-- --only TEXT]", "The repository's own checks: typecheck, the tools' tests, the manifest, the references at 100 and the stubs at 0, every known-bad, sabotage, probe, honest and hard-coded fixture.", SELF_TEST_FLAGS));
    return 0;
  }
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv, SELF_TEST_FLAGS);
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  } catch (error) {
    console.error(`self-test: ${(error as Error).message} (see --help)`);
    return 2;
  }
  const only = args.lists.get("only");
  const checks = only ? allChecks.filter((c) => only.some((text) => c.name.includes(text))) : allChecks;
  if (checks.length === 0) {
    console.error(`self-test: no check's name contains ${only!.map((t) => JSON.stringify(t)).join(" or ")}`);
    return 2;
  }
  const started = Date.now();
  let passed = 0;
  let failed = 0;
  // Two at a time: the machine this must stay fast on has two cores. The longest first, so that the
  // two lanes end together. A check that mostly waits (on a hang's timers, on child processes) runs
  // beside them from the start, so that its waiting overlaps the others' work.
  const shared = checks.filter((c) => !c.alone);
  const busy = shared.filter((c) => !c.waits).sort((a, b) => b.cost - a.cost);
  // The checks that wait share two lanes (the tools' tests, declared first, whose files run three at a time, and
  // the rest): more at once only made two cores slower for every check.
  const waiting = shared.filter((c) => c.waits);
  const lanes = [busy, busy, waiting.slice(0, 1), waiting.slice(1)];
  const outcomes = new Map<Check, string[]>();
  const seconds = new Map<Check, string>();
  const runLane = async (queue: Check[]) => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      const began = Date.now();
      try {
        outcomes.set(check, await check.run());
      } catch (error) {
        outcomes.set(check, [`crashed: ${(error as Error).stack ?? error}`]);
      }
      seconds.set(check, `${((Date.now() - began) / 1000).toFixed(1)} s`.padStart(7));
    }
  };
  await Promise.all(lanes.map(runLane));
  await runLane(checks.filter((c) => c.alone));
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
  if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`self-test: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code));

// One run of the specs: a vitest process (graded.vitest.config.ts) over the chosen katas' spec
// files, each kata in test processes of its own and its code in sandboxes (spec/support/sandbox/).
// Its product is the verdicts the run's reporter wrote, per kata and test, and the spec files that
// did not load; what they mean for each kata is kata-result.ts's.
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import type { Confinement } from "../../../spec/support/sandbox/confinement.ts";
import { CONFINEMENT_ENV, SANDBOX_CLIENT_ENV, SANDBOX_REPORT_ENV, SANDBOX_ROOT_ENV, SANDBOX_SUPERVISOR_ENV } from "../../../spec/support/sandbox/env.ts";
import { expectedTests, type KataTarget } from "./expected.ts";
import { GRADE_ENV } from "./grade-env.ts";
import { readJsonLines } from "./jsonl.ts";
import type { ManifestTest } from "./manifest.ts";
import { stopStrays } from "./strays.ts";
import type { TestStatus } from "./test-result.ts";
import { runVitest, type ChildOutcome } from "./vitest-child.ts";

/** One test as the run reported it. */
export interface Verdict {
  status: TestStatus;
  message?: string;
  durationMs?: number;
}

export interface SpecRun {
  verdicts: Map<string, Map<string, Verdict>>;
  /** Per kata: the spec files that did not load, and why. */
  fileErrors: Map<string, Map<string, string>>;
  /** Per kata: every test the run's report names, in the report's order. */
  listed: Map<string, ManifestTest[]>;
  reportWritten: boolean;
  child: ChildOutcome;
  limitMs: number;
}

export interface SpecRunOptions {
  seed: number;
  /** Wall-clock limit per kata run. */
  timeoutMs: number;
  /** The grader's private scratch folder: the run's verdicts go there. */
  workDir: string;
  includeBank: boolean;
  /** Test processes at once (default: one per core). */
  maxWorkers?: number;
}

const GRADED_CONFIG = join(PROJECT_ROOT, "scripts", "lib", "grader", "graded.vitest.config.ts");
const SUPERVISOR = join(PROJECT_ROOT, "spec", "support", "sandbox", "supervisor.mjs");
const kataIdOf = (file: string | undefined) => /(?:^|[\\/])spec[\\/](\d\d-[\w-]+)[\\/]/.exec(file ?? "")?.[1] ?? "";

export interface SandboxFiles {
  sandboxRoot: string;
  reportDir: string;
  client: string;
}

export async function runSpecs(targets: KataTarget[], options: SpecRunOptions, confinement: Confinement, { sandboxRoot, reportDir, client }: SandboxFiles): Promise<SpecRun> {
  const results = join(options.workDir, "verdicts.jsonl");
  const narrowed = targets.some((t) => t.only);
  const files = targets.flatMap((t) => (t.only ? [...new Set(expectedTests(t.manifest, { includeBank: options.includeBank, only: t.only }).map((e) => e.file))] : [`spec/${t.kata.id}/`]));
  // The one limit on the whole run: everything that can hang (a call, a load) has a limit of its
  // own well inside it, so this is the last resort against a grader's own fault.
  const limitMs = options.timeoutMs * targets.length;
  const env: Record<string, string> = {
    [GRADE_ENV.results]: results,
    [GRADE_ENV.katas]: targets.map((t) => t.kata.id).join(","),
    [GRADE_ENV.maxWorkers]: String(options.maxWorkers ?? availableParallelism()),
    [SANDBOX_ROOT_ENV]: sandboxRoot,
    [SANDBOX_REPORT_ENV]: reportDir,
    [SANDBOX_CLIENT_ENV]: client,
    [SANDBOX_SUPERVISOR_ENV]: SUPERVISOR,
    [CONFINEMENT_ENV]: JSON.stringify(confinement),
    FC_SEED: String(options.seed),
    ...(options.includeBank ? { GRADE_BANK: "1" } : {}),
    // A kata graded whole has every test of its own chosen.
    ...(narrowed ? { GRADE_ONLY: JSON.stringify(targets.flatMap((t) => (t.only ? [...t.only] : t.manifest.tests.map((m) => m.name)).map((name) => `${t.kata.id} > ${name}`))) } : {}),
  };
  let child: ChildOutcome;
  try {
    child = await runVitest(["run", ...files, "--config", GRADED_CONFIG], env, limitMs);
  } finally {
    // A test process killed for the time limit leaves its sandboxes behind: see strays.ts.
    stopStrays(sandboxRoot);
  }
  const run: SpecRun = { verdicts: new Map(), fileErrors: new Map(), listed: new Map(), reportWritten: false, child, limitMs };
  const slot = <T>(map: Map<string, T>, kata: string, make: () => T) => map.get(kata) ?? map.set(kata, make()).get(kata)!;
  const declared = new Map<string, string[]>();
  for (const record of readJsonLines<{ t: string; file?: string; name?: string; names?: string[]; state?: string; message?: string; duration?: number; error?: string }>(results)) {
    if (record.t === "end") run.reportWritten = true;
    if (record.t === "order" && record.file && record.names) declared.set(record.file, record.names);
    const kata = kataIdOf(record.file);
    if (record.t === "module" && kata) slot(run.fileErrors, kata, () => new Map()).set(record.file!, record.error ?? "");
    if (record.t === "test" && kata) {
      slot(run.listed, kata, () => []).push({ file: record.file!, name: record.name! });
      // "skip"/"pending"/"todo": a graded test that did not run did not pass.
      const status: TestStatus = record.state === "pass" || record.state === "passed" ? "pass" : "fail";
      slot(run.verdicts, kata, () => new Map()).set(record.name!, { status, message: record.message, durationMs: record.duration });
    }
  }
  // Each file's tests as it declares them, where its end was reported (see graded.vitest.config.ts).
  for (const [kata, listed] of run.listed) {
    const files = [...new Set(listed.map((t) => t.file))];
    run.listed.set(kata, files.flatMap((file) => {
      const inFile = listed.filter((t) => t.file === file);
      const order = declared.get(file);
      if (!order) return inFile;
      const ran = new Set(inFile.map((t) => t.name));
      return [...order.filter((name) => ran.has(name)).map((name) => ({ file, name })), ...inFile.filter((t) => !order.includes(t.name))];
    }));
  }
  return run;
}


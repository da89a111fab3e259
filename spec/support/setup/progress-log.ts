// Writes a line when each test starts and ends, synchronously, from inside the test worker.
// A candidate's synchronous infinite loop blocks the worker, so vitest itself never reports
// what happened before it; this log, read by the grader after its watchdog fires, does: which
// tests finished (and how), and which one started but never ended.
import { appendFileSync } from "node:fs";
import { afterEach, beforeEach, inject } from "vitest";
import "./provided-context.ts";

const logFile = process.env.GRADE_PROGRESS;
// Tests to leave out of this run: those the grader already saw hang (GRADE_SKIP, so that one
// endless loop costs one test), and those a warm watch run defers to its full run (skipTests).
// The grader names a test as "NN-kata > its full name" (one run may grade several katas); a
// watch run, always of one kata, by its full name alone.
const skipped = new Set<string>([
  ...(JSON.parse(process.env.GRADE_SKIP ?? "[]") as string[]),
  ...(inject("skipTests") ?? []),
]);
// The only tests to run, when the grader is narrowed to some tests (`npm run grade -- --only`):
// every other test is skipped, and the grader scores only these.
const only = process.env.GRADE_ONLY ? new Set<string>(JSON.parse(process.env.GRADE_ONLY) as string[]) : undefined;
const kataOf = (path: string | undefined) => /[\\/]spec[\\/](\d\d-[\w-]+)[\\/]/.exec(path ?? "")?.[1] ?? "";
const isSkipped = (task: NamedTask) => {
  const name = fullName(task);
  const qualified = `${kataOf(task.file?.filepath)} > ${name}`;
  return skipped.has(name) || skipped.has(qualified) || (only !== undefined && !only.has(qualified));
};

interface NamedTask {
  name: string;
  suite?: NamedTask;
  file?: { name: string; filepath?: string };
  result?: { state?: string; errors?: Array<{ message?: string }> };
}

function fullName(task: NamedTask): string {
  const names: string[] = [];
  for (let t: NamedTask | undefined = task.suite; t; t = t.suite) if (t.name) names.unshift(t.name);
  // The outermost "suite" is the file itself: its name is a path, not part of the test's name.
  if (task.file && names[0] === task.file.name) names.shift();
  names.push(task.name);
  return names.join(" > ");
}

function write(record: Record<string, unknown>): void {
  appendFileSync(logFile!, JSON.stringify(record) + "\n");
}

if (skipped.size > 0 || only) {
  beforeEach((context) => {
    if (isSkipped(context.task as unknown as NamedTask)) context.skip();
  });
}

if (logFile) {
  beforeEach((context) => {
    const task = context.task as unknown as NamedTask;
    if (isSkipped(task)) return;
    write({ event: "start", file: task.file?.filepath ?? task.file?.name, test: fullName(task) });
  });
  afterEach((context) => {
    const task = context.task as unknown as NamedTask;
    const error = task.result?.errors?.[0]?.message;
    write({
      event: "end",
      file: task.file?.filepath ?? task.file?.name,
      test: fullName(task),
      state: task.result?.state ?? "unknown",
      ...(error === undefined ? {} : { message: String(error).slice(0, 2000) }),
    });
  });
}

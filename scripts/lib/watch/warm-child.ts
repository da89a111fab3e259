// A long-lived vitest in watch mode for one kata: it keeps the transformed specs and the worker
// warm, re-runs the spec files a save affects, and sends each run's results to its parent
// (scripts/watch.ts) over IPC. The parent keeps the watchdog: this process runs candidate code.
import type { TestModule } from "vitest/node";
import { createVitest } from "vitest/node";

export interface WarmTest {
  /** describe titles and test title joined with " > ", tag included (as in spec/manifest.json). */
  name: string;
  state: "passed" | "failed" | "skipped" | "pending";
  message?: string;
}

export type WarmMessage =
  | { type: "start" }
  | { type: "end"; tests: WarmTest[]; fileErrors: Array<{ file: string; message: string }> };

const [kataId] = process.argv.slice(2);
const send = (message: WarmMessage): void => {
  process.send?.(message);
};

function collect(modules: ReadonlyArray<TestModule>): WarmMessage {
  const tests: WarmTest[] = [];
  const fileErrors: Array<{ file: string; message: string }> = [];
  for (const module of modules) {
    for (const error of module.errors()) fileErrors.push({ file: module.moduleId, message: error.message ?? String(error) });
    for (const test of module.children.allTests()) {
      const result = test.result();
      const message = result.state === "failed" ? result.errors?.[0]?.message : undefined;
      tests.push({ name: test.fullName, state: result.state, ...(message === undefined ? {} : { message }) });
    }
  }
  return { type: "end", tests, fileErrors };
}

const vitest = await createVitest("test", {
  watch: true,
  reporters: [
    {
      onTestRunStart: () => send({ type: "start" }),
      onTestRunEnd: (modules) => send(collect(modules)),
    },
  ],
});
await vitest.start([`spec/${kataId}/`]);

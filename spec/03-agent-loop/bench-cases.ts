// Kata 3's benchmark inputs, for `npm run bench` (the reference beside a bare loop, and beside the
// slowest tool's time) and `npm run compare` (a candidate beside the reference). Not a spec.
//
//   - loop overhead: a scripted model (spec/support/agent-harness) that asks for one call per step
//     for ten steps, then answers; the tools answer at once, so what is timed is the loop itself:
//     history, argument checks, envelopes, masking, truncation, trace;
//   - concurrency: one step of N tools that each take 100 ms of real time (real timers: this is a
//     benchmark, not a spec). Run concurrently, the step takes about 100 ms, not N x 100 ms.
import type { BenchCase } from "../support/bench-case.ts";
import { reply, scriptedModel, spyTool, tools } from "../support/agent-harness/index.ts";
import type { AgentOptions, Tool } from "../../solutions/03-agent-loop/index.ts";

type Kata3 = typeof import("../../solutions/03-agent-loop/index.ts");

/** The options of one run, built fresh for every run: scripted models and spy tools keep state. */
export type Scenario = () => Pick<AgentOptions, "model" | "tools" | "messages"> & Partial<AgentOptions>;

const question = [{ role: "user" as const, content: "Look it up, step by step." }];

/** `steps` steps of one call each (arguments differ, so no repeated-call stop), then an answer. */
export const stepByStep = (steps: number): Scenario => () => ({
  model: scriptedModel((_request, i) => (i < steps ? reply.calls(["lookup", { city: "北京", step: i }]) : reply.text("done"))),
  tools: [tools.echo("lookup")],
  messages: question,
  maxSteps: steps + 1,
});

/** One step of `calls` calls to tools that answer at once, then an answer. */
export const wideStep = (calls: number): Scenario => () => ({
  model: scriptedModel((_request, i) =>
    i === 0 ? reply.calls(...Array.from({ length: calls }, (_, k) => ["lookup", { city: "北京", k }] as [string, object])) : reply.text("done")),
  tools: [tools.echo("lookup")],
  messages: question,
  concurrency: calls,
});

export const TOOL_MS = 100;

/** Real time, unlike the harness's fake clock; stops early when the call is aborted. */
const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** A tool that takes TOOL_MS of real time. */
export const slowTool = (name: string): Tool =>
  spyTool(name, async (_args, ctx) => {
    await realSleep(TOOL_MS, ctx.signal);
    return { tool: name };
  });

/**
 * One step of `n` slow tools, then an answer. `concurrency` is `n` (all at once) unless given;
 * "default" leaves the option out, so the implementation's default limit applies (4 in the kata).
 */
export const concurrentStep = (n: number, concurrency: number | "default" = n): Scenario => () => ({
  model: scriptedModel((_request, i) =>
    i === 0 ? reply.calls(...Array.from({ length: n }, (_, k) => [`slow_${k}`, {}] as [string, object])) : reply.text("done")),
  tools: Array.from({ length: n }, (_, k) => slowTool(`slow_${k}`)),
  messages: question,
  ...(concurrency === "default" ? {} : { concurrency }),
});

export const OVERHEAD_STEPS = 10;
export const WIDE_CALLS = 10;
export const CONCURRENT = [1, 4, 16, 64];
/** The step of 16 slow tools again, with the kata's default concurrency limit (4). */
export const LIMITED = 16;

export const CASE_NAMES = {
  steps: `loop: ${OVERHEAD_STEPS} steps of one call each`,
  wide: `loop: one step of ${WIDE_CALLS} calls`,
  concurrent: (n: number) => `one step of ${n} concurrent ${TOOL_MS} ms tools`,
  limited: `one step of ${LIMITED} ${TOOL_MS} ms tools, default concurrency`,
};

export default function benchCases(impl: Kata3): BenchCase[] {
  const run = (scenario: Scenario) => () => impl.runAgent(scenario());
  return [
    // Nothing in these two waits on a timer: CPU time is the loop's cost, whatever else runs.
    { name: CASE_NAMES.steps, items: { count: OVERHEAD_STEPS, unit: "step" }, clock: "cpu", run: run(stepByStep(OVERHEAD_STEPS)) },
    { name: CASE_NAMES.wide, items: { count: WIDE_CALLS, unit: "call" }, clock: "cpu", run: run(wideStep(WIDE_CALLS)) },
    ...CONCURRENT.map((n) => ({ name: CASE_NAMES.concurrent(n), run: run(concurrentStep(n)) })),
    { name: CASE_NAMES.limited, run: run(concurrentStep(LIMITED, "default")) },
  ];
}

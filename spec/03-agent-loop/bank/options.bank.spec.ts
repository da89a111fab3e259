// Held-out bank, kata 3, the README's option values (public API, "Options"): each option just past
// its edges, on values the visible specs do not use, and the edge values that are valid.
import { describe, expect } from "vitest";
import type { AgentOptions, TraceEvent } from "@impl/03-agent-loop";
import { l2 } from "../../support/graded.ts";
import { FakeClock, reply, scriptedModel, tools } from "../../support/agent-harness/index.ts";
import { envelope, run, toolMessages, USER } from "../helpers.ts";

/** Runs with `options`; what came out, and whether anything happened before it. */
async function attempt(options: Partial<AgentOptions>): Promise<{ error: unknown; happened: number }> {
  const model = scriptedModel([reply.text("never")]);
  const seen: TraceEvent[] = [];
  const error = await run({ model, tools: [tools.ok("lookup")], onTrace: (e) => seen.push(e), ...options }).then(
    () => undefined,
    (thrown: unknown) => thrown ?? new Error("rejected without a reason"),
  );
  return { error, happened: model.requests.length + seen.length };
}

async function expectRefusals(cases: Array<[string, Partial<AgentOptions>]>): Promise<void> {
  for (const [option, options] of cases) {
    const label = `${option} in ${JSON.stringify(options, (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v))}`;
    const { error, happened } = await attempt(options);
    expect(error, `${label}: runAgent rejects with a RangeError`).toBeInstanceOf(RangeError);
    expect(String((error as Error | undefined)?.message), `${label}: the RangeError's message names ${option}`).toContain(option);
    expect(happened, `${label}: no request and no trace event before the refusal`).toBe(0);
  }
}

describe("1. The loop: ask, run, feed back, end on a plain answer", () => {
  l2("limits just past their edges (fractions, negatives, a numeric string) are refused: a RangeError naming the option", async () => {
    await expectRefusals([
      ["maxSteps", { maxSteps: 1.5 }],
      ["maxSteps", { maxSteps: -4 }],
      ["maxRepeatedCalls", { maxRepeatedCalls: 3.5 }],
      ["maxRepeatedCalls", { maxRepeatedCalls: -Infinity }],
      ["tokenBudget", { tokenBudget: -0.001 }],
      ["tokenBudget", { tokenBudget: "50" as unknown as number }],
      ["concurrency", { concurrency: 2.5 }],
      ["concurrency", { concurrency: -1 }],
      ["concurrency", { concurrency: "4" as unknown as number }],
    ]);
  });

  l2("timeouts, retries, backoff and the result budget just past their edges: a RangeError naming the option", async () => {
    await expectRefusals([
      ["toolTimeoutMs", { toolTimeoutMs: 2 ** 31 - 0.5 }],
      ["toolTimeoutMs", { toolTimeoutMs: 0 }],
      ["toolTimeoutMs", { toolTimeoutMs: -0.5 }],
      ["toolTimeoutMs", { toolTimeoutMs: "250" as unknown as number }],
      ["retries", { retries: 1.5 }],
      ["retries", { retries: -3 }],
      ["backoffBaseMs", { backoffBaseMs: -0.25 }],
      ["backoffBaseMs", { backoffBaseMs: Infinity }],
      ["backoffBaseMs", { backoffBaseMs: "10" as unknown as number }],
      ["maxResultChars", { maxResultChars: 0.5 }],
      ["maxResultChars", { maxResultChars: -10 }],
    ]);
  });

  l2("a tool's own timeoutMs or retries out of range, or two tools with one name: a RangeError naming it", async () => {
    await expectRefusals([
      ["timeoutMs", { tools: [tools.ok("fetch_page", 1, { timeoutMs: -250 })] }],
      ["timeoutMs", { tools: [tools.ok("a"), tools.ok("fetch_page", 1, { timeoutMs: 2 ** 31 })] }],
      ["retries", { tools: [tools.ok("fetch_page", 1, { retries: 1.5 })] }],
      ["retries", { tools: [tools.ok("a"), tools.ok("fetch_page", 1, { retries: -1 })] }],
      ["tools", { tools: [tools.ok("lookup", 1), tools.ok("notify", 2), tools.ok("lookup", 3)] }],
    ]);
  });

  l2("a toolChoice that is none of the four forms (a wrong case, \"\", {}, a name that is not a string, null): a RangeError naming it", async () => {
    const choices: unknown[] = ["Required", "", "none ", {}, { name: ["lookup"] }, { name: null }, null, 7];
    await expectRefusals(choices.map((toolChoice) => ["toolChoice", { toolChoice: toolChoice as AgentOptions["toolChoice"] }]));
  });

  l2("the edge values are valid: maxRepeatedCalls Infinity, concurrency 1, toolTimeoutMs 2 ** 31 - 1, backoffBaseMs 0, maxResultChars 0, toolChoice \"auto\"", async () => {
    const clock = new FakeClock();
    const probe = tools.flaky("probe", 1, "pong");
    const model = scriptedModel([reply.calls(["probe", { k: 1 }]), reply.calls(["probe", { k: 1 }]), reply.calls(["probe", { k: 1 }]), reply.text("enough")]);
    const r = await run({
      model, clock, tools: [probe],
      maxRepeatedCalls: Infinity, concurrency: 1, toolTimeoutMs: 2 ** 31 - 1, backoffBaseMs: 0, maxResultChars: 0, retries: 1, toolChoice: "auto",
    });
    expect(r, "the edge values are valid: the run completes").toMatchObject({ status: "completed", finalText: "enough", steps: 4 });
    expect(probe.executions, "three identical calls under Infinity, the first retried once").toBe(4);
    expect(clock.now(), "backoffBaseMs 0: the retry waited 0 ms").toBe(0);
    expect(toolMessages(r).map(envelope), "maxResultChars 0 cuts every character").toEqual(Array(3).fill({ ok: true, data: "…[truncated 4 chars]" }));
  });

  l2("tokenBudget 0 is valid and ends the run as budget_exhausted before the first request", async () => {
    const model = scriptedModel([reply.calls(["lookup", {}]), reply.text("never")]);
    const r = await run({ model, tools: [tools.ok("lookup")], tokenBudget: 0, maxSteps: 1, concurrency: Infinity });
    expect(r, "tokenBudget 0: budget_exhausted, the model never asked").toMatchObject({ status: "budget_exhausted", steps: 0, finalText: null });
    expect(model.requests.length, "tokenBudget 0: no request").toBe(0);
    expect(r.messages, "tokenBudget 0: the caller's messages only").toEqual(USER);
  });
});

// Fuzz specs for kata 3: random scripted conversations with random tool behaviours, and the
// invariants the README's tasks 12 and 13 state must hold for every one of them (a run ends within
// its limits with a well-formed history, bounded executions and nothing unmasked; results come
// back in call order; each turn adds one assistant message and its answers).
import fc from "fast-check";
import { describe, expect } from "vitest";
import { runAgent, type Message, type ModelReply, type ModelRequest, type RunResult, type Tool } from "@impl/03-agent-loop";
import { l2, l3 } from "../support/graded.ts";
import { idle } from "../support/realm.ts";
import {
  BEARER,
  CN_PHONE,
  EMAIL,
  FakeClock,
  ID_NUMBER,
  INTL_PHONE,
  SECRET_KEY,
  leakyError,
  reply,
  scriptedModel,
  spyTool,
  tools,
  transientError,
  type SpyTool,
} from "../support/agent-harness/index.ts";
import {
  abortAtArb,
  callKindArb,
  conversationArb,
  runLimitsArb,
  toolPlansArb,
  toReplies,
  type CallKind,
  type RunLimits,
  type ToolPlan,
} from "./arbitraries.ts";
import { USER, errorCode, freshUser, type ToolMessage } from "./helpers.ts";

const STATUSES = ["completed", "max_steps", "repeated_call", "budget_exhausted", "finished", "aborted"];
const SENSITIVE = [SECRET_KEY, BEARER.split(" ")[1], CN_PHONE, INTL_PHONE, ID_NUMBER, EMAIL];
const Q_SCHEMA = { type: "object" as const, properties: { q: { type: "string" as const } }, required: ["q"], additionalProperties: false };

function makeTool(plan: ToolPlan, clock: FakeClock): SpyTool {
  const extra: Partial<Tool> = { parameters: Q_SCHEMA, dangerous: plan.dangerous, ...(plan.retries === undefined ? {} : { retries: plan.retries }) };
  const behaviours: Record<ToolPlan["behaviour"], Parameters<typeof spyTool>[1]> = {
    ok: (args) => ({ echo: args.q }),
    throw: () => {
      throw leakyError();
    },
    transient: async () => {
      throw transientError(`down, ask ${EMAIL}`);
    },
    flaky: async (args, _ctx, n) => {
      if (n === 1) throw transientError();
      return { echo: args.q };
    },
    hang: () => new Promise(() => {}),
    slow: async (args, ctx) => {
      await clock.sleep(plan.delayMs, ctx.signal);
      return { echo: args.q };
    },
    huge: () => `${SECRET_KEY} ` + "y".repeat(10_000) + ` ${EMAIL}`,
    leaky_result: () => ({ key: SECRET_KEY, auth: BEARER, phone: CN_PHONE, intl: INTL_PHONE, id: ID_NUMBER, mail: EMAIL }),
    finish: () => ({ $finish: `done, mailed ${EMAIL}` }),
  };
  return spyTool(plan.name, behaviours[plan.behaviour], extra);
}

/** Walks the history: each assistant message is followed by exactly its calls' tool messages. */
function checkHistory(messages: Message[], initial: number): void {
  expect(messages.slice(0, initial), "messages start with the caller's").toEqual(USER);
  const ids = new Set<string>();
  let i = initial;
  while (i < messages.length) {
    const m = messages[i];
    // No tool message without the assistant message that asked for it; no stray user message.
    expect(m.role, "after the caller's messages, every run of messages starts with an assistant message (no orphan tool or stray user message)").toBe("assistant");
    const calls = m.role === "assistant" ? m.tool_calls ?? [] : [];
    calls.forEach((call, k) => {
      expect(ids.has(call.id), "call ids are unique in a run").toBe(false);
      ids.add(call.id);
      const answer = messages[i + 1 + k];
      expect(answer?.role, "each call is answered by a tool message right after its assistant message, in order").toBe("tool");
      expect((answer as ToolMessage).tool_call_id, "the tool message answers its call's id").toBe(call.id);
      expect((answer as ToolMessage).name, "the tool message carries its call's name").toBe(call.name);
      expect(typeof (answer as ToolMessage).is_error, "is_error is a boolean").toBe("boolean");
    });
    i += 1 + calls.length;
  }
}

function checkClean(text: string, where: string): void {
  for (const s of SENSITIVE) expect(text, `no unmasked secret in ${where}`).not.toContain(s);
  expect(text, `no stack trace in ${where}`).not.toMatch(/\n\s*at /);
}

/** Error text goes through describeError: no path in it (a result's own paths are data). */
function checkNoPath(errors: Array<string | undefined>, where: string): void {
  for (const e of errors) expect(e ?? "", `no path in ${where}`).not.toContain("/home/deploy");
}

describe("12. Robustness: whatever the model and the tools do, the run stays bounded, well-formed and leak-free", () => {
  l3.property(
    "every run ends within its limits with a well-formed history, bounded executions, nothing unmasked",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversationArb, toolPlansArb, runLimitsArb, abortAtArb, async (plans, toolPlans, limits: RunLimits, abortAt) => {
          const clock = new FakeClock();
          const controller = new AbortController();
          if (abortAt !== undefined) void clock.sleep(abortAt).then(() => controller.abort());
          const replies = toReplies(plans);
          // After the script, the model answers in plain text: every run can end.
          const model = scriptedModel((_req: ModelRequest, i: number): ModelReply => replies[i] ?? reply.text("fallback"));
          const spies = toolPlans.map((p) => makeTool(p, clock));
          const r: RunResult = await runAgent({
            model,
            tools: spies,
            messages: freshUser(),
            clock,
            ...limits,
            signal: controller.signal,
            approve: ({ call }) => toolPlans.find((p) => p.name === call.name)?.approved ?? false,
            policy: ({ call }) =>
              toolPlans.find((p) => p.name === call.name)?.policyDenied ? { allow: false, reason: "policy says no" } : { allow: true },
          });

          // Ends within its limits.
          expect(STATUSES, "the run ends with one of the six statuses").toContain(r.status);
          expect(r.steps, "the model is asked at most maxSteps times").toBeLessThanOrEqual(limits.maxSteps);
          expect(model.requests.length, "steps counts the requests made").toBe(r.steps);
          if (r.status === "completed") {
            const last = r.messages.at(-1);
            expect(last?.role === "assistant" && (last.tool_calls ?? []).length === 0 && last.content, "completed: finalText is the last plain reply's content").toBe(r.finalText);
          }
          if (r.status === "budget_exhausted") expect(r.usage.total_tokens, "budget_exhausted only once the tokens used reach tokenBudget").toBeGreaterThanOrEqual(limits.tokenBudget ?? Infinity);

          // One tool message per call id, in order; none orphaned.
          checkHistory(r.messages, USER.length);
          // One assistant message per reply, carrying all of that reply's calls.
          const assistants = r.messages.filter((m) => m.role === "assistant");
          const answered = r.status === "aborted" && assistants.length === r.steps - 1 ? r.steps - 1 : r.steps;
          expect(assistants.length, "one assistant message per answered reply").toBe(answered);
          assistants.forEach((m, i) => {
            const asked = (replies[i] ?? { tool_calls: [] }).tool_calls ?? [];
            expect(m.role === "assistant" && (m.tool_calls ?? []).map((c) => c.name), "each assistant message carries all of its reply's calls, in order").toEqual(asked.map((c) => c.name));
          });

          // No tool runs more than 1 + retries times per call; gated tools never run.
          spies.forEach((spy, k) => {
            const plan = toolPlans[k];
            const perCall = new Map<string, number>();
            for (const ctx of spy.contexts) perCall.set(ctx.callId, (perCall.get(ctx.callId) ?? 0) + 1);
            for (const count of perCall.values()) expect(count, "no call executes more than 1 + retries times").toBeLessThanOrEqual(1 + (plan.retries ?? limits.retries));
            if (plan.policyDenied || (plan.dangerous && !plan.approved)) expect(spy.executions, "denied and unapproved tools never run").toBe(0);
          });
          const toolMsgs = r.messages.filter((m): m is ToolMessage => m.role === "tool");
          for (const m of toolMsgs) {
            if (errorCode(m) === "denied" || errorCode(m) === "not_approved") {
              const spy = spies.find((s) => s.name === m.name);
              expect(spy?.contexts.some((c) => c.callId === m.tool_call_id) ?? false, "a denied or unapproved call never ran").toBe(false);
            }
          }

          // No stack trace or unmasked secret in what the loop wrote, nor in the trace; no path in error text.
          checkClean(JSON.stringify(toolMsgs.map((m) => m.content)), "the tool messages' content");
          checkClean(JSON.stringify(r.trace), "the trace");
          if (r.status === "finished") checkClean(String(r.finalText), "the $finish answer");
          checkNoPath(toolMsgs.map((m) => { const e = JSON.parse(m.content) as { ok: boolean; error?: { message: string } }; return e.error?.message; }), "an error message");
          checkNoPath(r.trace.map((e) => (e.type === "tool_call" ? e.error : undefined)), "the trace's errors");
          expect(r.trace.filter((e) => e.type === "tool_call").length, "one tool_call event per tool message").toBe(toolMsgs.length);
        }),
      );
    },
    { weight: 5 },
  );

  l2.property("parallel results come back in call order whatever order they finish in (fc.scheduler)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.record({ fails: fc.boolean(), value: fc.integer() }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 6 }),
        async (s, jobs, concurrency) => {
          const clock = new FakeClock({ autoAdvance: false });
          const job = spyTool("job", (args) =>
            s.schedule(Promise.resolve(args.i as number), `job ${String(args.i)}`).then((i) => {
              if (jobs[i].fails) throw new Error(`job ${i} failed`);
              return { v: jobs[i].value };
            }),
          );
          const model = scriptedModel([reply.calls(...jobs.map((_, i) => ["job", { i }, `c${i}`] as [string, object, string])), reply.text("ok")]);
          // The first job to finish is picked only once both processes are idle: by then every job the
          // loop starts at once is waiting, so the pick can be any of them, not just the first to
          // arrive across the sandbox's channel. Once is enough (the rest stay pending for later
          // picks), and each wait for idleness costs round trips.
          let waited = false;
          const releaseWhenIdle = async (release: () => Promise<void>): Promise<void> => {
            if (!waited) {
              waited = true;
              await idle();
            }
            return release();
          };
          const r = await s.waitFor(runAgent({ model, tools: [job], messages: freshUser(), clock, concurrency, retries: 0 }), releaseWhenIdle);
          const toolMsgs = r.messages.filter((m): m is ToolMessage => m.role === "tool");
          expect(toolMsgs.map((m) => m.tool_call_id), "results come back in call order whatever order they finish in").toEqual(jobs.map((_, i) => `c${i}`));
          toolMsgs.forEach((m, i) => {
            expect(m.is_error, "is_error matches each job's outcome").toBe(jobs[i].fails);
            if (!jobs[i].fails) expect(JSON.parse(m.content), "each job's result is in its own call's message").toEqual({ ok: true, data: { v: jobs[i].value } });
          });
          expect(job.maxInFlight, "the concurrency cap holds").toBeLessThanOrEqual(concurrency);
        },
      ),
    );
  });
});

// --- Stateful spec: the test plays the model, one turn per command, and checks each step. ---

type DriverEvent =
  | { kind: "request"; request: ModelRequest; respond: (r: ModelReply) => void }
  | { kind: "done"; result: RunResult }
  | { kind: "error"; error: unknown };

/** Runs the loop with a model that waits for the test to answer each request. */
class Driver {
  private queue: DriverEvent[] = [];
  private waiters: Array<(e: DriverEvent) => void> = [];
  pending: Extract<DriverEvent, { kind: "request" }> | undefined;
  readonly tools: SpyTool[];

  constructor() {
    const clock = new FakeClock();
    this.tools = [
      spyTool("ok_tool", (args) => ({ echo: args.q }), { parameters: Q_SCHEMA }),
      tools.throws("fail_tool"),
      tools.transient("flaky_tool", { retries: 1 }),
      tools.hang("hang_tool", { retries: 0, timeoutMs: 100 }),
    ];
    const model = (request: ModelRequest) => new Promise<ModelReply>((respond) => this.push({ kind: "request", request, respond }));
    runAgent({ model, tools: this.tools, messages: freshUser(), clock, maxSteps: 1000, maxRepeatedCalls: 1000, backoffBaseMs: 5 }).then(
      (result) => this.push({ kind: "done", result }),
      (error) => this.push({ kind: "error", error }),
    );
  }

  private push(e: DriverEvent) {
    const waiter = this.waiters.shift();
    if (waiter) waiter(e);
    else this.queue.push(e);
  }

  next(): Promise<DriverEvent> {
    const e = this.queue.shift();
    return e ? Promise.resolve(e) : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** The event as a model request; a run that failed or ended instead is reported as such. */
function asRequest(e: DriverEvent): Extract<DriverEvent, { kind: "request" }> {
  if (e.kind === "error") throw e.error;
  if (e.kind === "done") throw new Error(`expected a model request, but the run ended with status ${e.result.status}`);
  return e;
}

interface TurnModel {
  ended: boolean;
  historyLength: number;
  turns: number;
}

const CALL_FOR: Record<CallKind, (n: number) => [string, Record<string, unknown>] > = {
  ok: (n) => ["ok_tool", { q: `v${n}` }],
  unknown: (n) => ["no_such_tool", { q: `v${n}` }],
  bad_arguments: (n) => ["ok_tool", { q: n }],
  throws: (n) => ["fail_tool", { n }],
  transient: (n) => ["flaky_tool", { n }],
  hangs: (n) => ["hang_tool", { n }],
};
const EXPECTED_CODE: Record<CallKind, string | undefined> = {
  ok: undefined,
  unknown: "unknown_tool",
  bad_arguments: "invalid_arguments",
  throws: "tool_error",
  transient: "unavailable",
  hangs: "timeout",
};

let serial = 0;

class CallsTurn implements fc.AsyncCommand<TurnModel, Driver> {
  constructor(readonly kinds: CallKind[]) {}
  check = (m: Readonly<TurnModel>) => !m.ended;
  async run(m: TurnModel, d: Driver) {
    const pending = asRequest(d.pending ?? (await d.next()));
    const calls = this.kinds.map((k) => {
      const [name, args] = CALL_FOR[k](serial++);
      return [name, args, `turn${m.turns}_${serial}`] as [string, Record<string, unknown>, string];
    });
    pending.respond(reply.calls(...calls));
    const next = asRequest(await d.next());
    d.pending = next;
    const added = next.request.messages.slice(m.historyLength);
    expect(added.length, "the history grew by one assistant message and one tool message per call").toBe(1 + calls.length);
    expect(added[0].role === "assistant" && added[0].tool_calls?.map((c) => c.id), "the assistant message carries the turn's calls, in order").toEqual(calls.map((c) => c[2]));
    const answers = added.slice(1) as ToolMessage[];
    expect(answers.map((a) => a.tool_call_id), "the tool messages answer the calls in order").toEqual(calls.map((c) => c[2]));
    expect(answers.map(errorCode), "each call's expected code").toEqual(this.kinds.map((k) => EXPECTED_CODE[k]));
    m.historyLength = next.request.messages.length;
    m.turns++;
  }
  toString = () => `calls(${this.kinds.join(", ")})`;
}

class AnswerTurn implements fc.AsyncCommand<TurnModel, Driver> {
  check = (m: Readonly<TurnModel>) => !m.ended;
  async run(m: TurnModel, d: Driver) {
    const pending = asRequest(d.pending ?? (await d.next()));
    pending.respond(reply.text("final answer"));
    const done = await d.next();
    if (done.kind === "error") throw done.error;
    if (done.kind !== "done") throw new Error("expected the run to end after a plain answer, but the model was asked again");
    expect(done.result.status, "a plain answer completes the run").toBe("completed");
    expect(done.result.finalText, "finalText is the plain answer").toBe("final answer");
    expect(done.result.messages.length, "the plain answer is the last message added").toBe(m.historyLength + 1);
    expect(done.result.steps, "steps counts every turn").toBe(m.turns + 1);
    m.ended = true;
    d.pending = undefined;
  }
  toString = () => "answer";
}

describe("13. Turn by turn: each reply adds one assistant message and its answers, in order", () => {
  l2.property("after every turn the history grows by exactly the assistant message and its answers, in order", async () => {
    const commands = [
      fc.array(callKindArb, { minLength: 1, maxLength: 4 }).map((kinds) => new CallsTurn(kinds)),
      fc.constant(new AnswerTurn()),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 8 }), async (cmds) => {
        const driver = new Driver();
        const model: TurnModel = { ended: false, historyLength: USER.length, turns: 0 };
        await fc.asyncModelRun(() => ({ model, real: driver }), cmds);
        if (!model.ended) await new AnswerTurn().run(model, driver);
        // Gated and failing calls never ran more than their retries allow.
        expect(driver.tools[2].executions, "a retryable tool never runs more than 1 + retries times per call").toBeLessThanOrEqual(2 * driver.tools[2].contexts.filter((c) => c.attempt === 1).length);
      }),
    );
  });
});

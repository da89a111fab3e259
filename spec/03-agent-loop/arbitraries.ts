// Generators for kata 3's fuzz specs: scripted conversations, tool behaviours and run options,
// biased on purpose towards what breaks loops (hangs, throws, retries, unknown names, bad
// arguments, repeated calls, secrets in arguments and results).
import fc from "fast-check";
import type { ModelReply } from "@impl/03-agent-loop";
import { CN_PHONE, EMAIL, ID_NUMBER, INTL_PHONE, SECRET_KEY } from "../support/agent-harness/index.ts";

/** What a tool does when it runs. */
export type Behaviour = "ok" | "throw" | "transient" | "flaky" | "hang" | "slow" | "huge" | "leaky_result" | "finish";

export const behaviourArb: fc.Arbitrary<Behaviour> = fc.constantFrom(
  "ok", "throw", "transient", "flaky", "hang", "slow", "huge", "leaky_result", "finish",
);

/** One tool of a run: its behaviour and how the run's gates treat it. */
export interface ToolPlan {
  name: string;
  behaviour: Behaviour;
  /** Milliseconds a "slow" tool takes. */
  delayMs: number;
  dangerous: boolean;
  /** What `approve` answers for it (only asked when dangerous). */
  approved: boolean;
  /** The policy denies every call of it. */
  policyDenied: boolean;
  /** The tool's own `retries`, or undefined to use the run's. */
  retries: number | undefined;
}

export const TOOL_NAMES = ["t0", "t1", "t2", "t3"] as const;

export const toolPlanArb = (name: string): fc.Arbitrary<ToolPlan> =>
  fc.record({
    name: fc.constant(name),
    behaviour: behaviourArb,
    delayMs: fc.integer({ min: 1, max: 600 }),
    dangerous: fc.boolean(),
    approved: fc.boolean(),
    policyDenied: fc.boolean(),
    retries: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  });

export const toolPlansArb: fc.Arbitrary<ToolPlan[]> = fc.tuple(...TOOL_NAMES.map(toolPlanArb));

/** Strings a model might put in arguments, sensitive ones included. */
export const sensitiveStringArb = fc.constantFrom(SECRET_KEY, CN_PHONE, EMAIL, ID_NUMBER, INTL_PHONE, `call ${CN_PHONE} or ${EMAIL}`);
export const argumentTextArb = fc.oneof(
  fc.string({ maxLength: 20 }),
  sensitiveStringArb,
  fc.constantFrom("北京", "__proto__", '{"', "a\nb", "(x)[y]{z}", "，“”："),
);

/** Arguments for a tool whose schema requires {q: string} and allows nothing else. */
export const argumentsArb: fc.Arbitrary<Record<string, unknown> | string> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ q: argumentTextArb }) },
  { weight: 1, arbitrary: fc.record({ q: argumentTextArb }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.record({ q: fc.integer() }) },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ q: argumentTextArb, extra: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constantFrom('{"q": "cut', "[1]", "42", "{q: 1}", "null") },
);

/** A tool name: mostly registered ones, sometimes a name the registry does not have. */
export const callNameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TOOL_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom("nope", "__proto__", "toString", "T0", "") },
);

export interface CallPlan {
  name: string;
  args: Record<string, unknown> | string;
  /** Leave the id out: the loop must make one. */
  omitId: boolean;
}

export const callPlanArb: fc.Arbitrary<CallPlan> = fc.record({
  name: callNameArb,
  args: argumentsArb,
  omitId: fc.boolean(),
});

/** One reply of the model: a plain answer, calls, or the previous reply's calls again. */
export type ReplyPlan =
  | { kind: "text"; usage: number }
  | { kind: "calls"; calls: CallPlan[]; usage: number }
  | { kind: "again"; usage: number };

const usageArb = fc.integer({ min: 0, max: 400 });

export const replyPlanArb: fc.Arbitrary<ReplyPlan> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("text" as const), usage: usageArb }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("calls" as const), calls: fc.array(callPlanArb, { minLength: 1, maxLength: 4 }), usage: usageArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("again" as const), usage: usageArb }) },
);

/** Turns reply plans into model replies with unique ids ("again" repeats the previous calls). */
export function toReplies(plans: ReplyPlan[]): ModelReply[] {
  let n = 0;
  let previous: CallPlan[] = [{ name: "t0", args: { q: "x" }, omitId: false }];
  return plans.map((plan) => {
    const usage = { input_tokens: plan.usage, output_tokens: Math.floor(plan.usage / 4) };
    if (plan.kind === "text") return { content: `answer ${n++}`, usage };
    const calls = plan.kind === "calls" ? plan.calls : previous;
    previous = calls;
    return {
      content: "",
      usage,
      tool_calls: calls.map((c) => ({ ...(c.omitId ? {} : { id: `id_${n++}` }), name: c.name, arguments: c.args })),
    };
  });
}

export const conversationArb: fc.Arbitrary<ReplyPlan[]> = fc.array(replyPlanArb, { minLength: 1, maxLength: 8 });

export interface RunLimits {
  maxSteps: number;
  maxRepeatedCalls: number;
  retries: number;
  concurrency: number;
  toolTimeoutMs: number;
  backoffBaseMs: number;
  maxResultChars: number;
  tokenBudget: number | undefined;
}

export const runLimitsArb: fc.Arbitrary<RunLimits> = fc.record({
  maxSteps: fc.integer({ min: 1, max: 6 }),
  maxRepeatedCalls: fc.integer({ min: 2, max: 4 }),
  retries: fc.integer({ min: 0, max: 2 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
  toolTimeoutMs: fc.integer({ min: 50, max: 400 }),
  backoffBaseMs: fc.integer({ min: 1, max: 50 }),
  maxResultChars: fc.integer({ min: 10, max: 300 }),
  tokenBudget: fc.option(fc.integer({ min: 100, max: 3000 }), { nil: undefined }),
});

/** One model turn for the stateful (fc.commands) spec: what each call of the reply does. */
export type CallKind = "ok" | "unknown" | "bad_arguments" | "throws" | "transient" | "hangs";
export const callKindArb: fc.Arbitrary<CallKind> = fc.constantFrom("ok", "unknown", "bad_arguments", "throws", "transient", "hangs");

/** When (in fake ms) the caller aborts the run, if ever. */
export const abortAtArb: fc.Arbitrary<number | undefined> = fc.option(fc.integer({ min: 0, max: 1500 }), { nil: undefined, freq: 3 });

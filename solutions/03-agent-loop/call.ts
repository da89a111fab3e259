// One tool call, from the model's request to the envelope the model will read. The gates run in a
// fixed order, cheapest and least trusting first, and the tool only runs if all of them pass:
// known tool -> tool choice -> arguments -> policy -> approval -> execution (with retries).
import { ABORTED, raceAbort } from "./abort.ts";
import { checkArguments, parseArguments } from "./arguments.ts";
import { canonicalJson } from "./canonical.ts";
import { errorEnvelope, okEnvelope } from "./envelope.ts";
import { maskSecrets } from "./redact.ts";
import { runWithRetries } from "./retry.ts";
import type {
  ApprovalRequest,
  Clock,
  Envelope,
  ErrorCode,
  PolicyDecision,
  PolicyRequest,
  Tool,
  ToolCall,
  ToolChoice,
  TraceEvent,
  Validation,
} from "./types.ts";

/** What a call needs to know about its run. */
export interface CallEnv {
  runId: string;
  step: number;
  tools: ReadonlyMap<string, Tool>;
  toolChoice: ToolChoice;
  timeoutMs: number;
  retries: number;
  backoffBaseMs: number;
  maxResultChars: number;
  clock: Clock;
  signal: AbortSignal;
  history: PolicyRequest["history"];
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  policy?: (request: PolicyRequest) => PolicyDecision | Promise<PolicyDecision>;
  emit: (event: TraceEvent) => void;
}

export interface CallResult {
  call: ToolCall;
  envelope: Envelope;
  /** Set when the tool ran (successfully or not): what the policy's history records. */
  executed?: { name: string; arguments: Record<string, unknown>; ok: boolean };
  /** Set when the result is the completion signal `{ $finish: "<answer>" }`. */
  finish?: string;
}

/** A tool result `{ $finish: "answer" }` ends the run with status "finished". */
export function finishAnswer(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const answer = (value as Record<string, unknown>).$finish;
  return Object.hasOwn(value, "$finish") && typeof answer === "string" ? answer : undefined;
}

export async function runCall(call: ToolCall, env: CallEnv): Promise<CallResult> {
  const startedAt = env.clock.now();
  let validation: Validation = "not_checked";
  let retries = 0;
  let argsForTrace = call.arguments;

  const settle = (result: CallResult): CallResult => {
    const { envelope } = result;
    env.emit({
      type: "tool_call",
      runId: env.runId,
      at: env.clock.now(),
      step: env.step,
      callId: call.id,
      name: maskSecrets(call.name),
      arguments: maskSecrets(argsForTrace),
      validation,
      outcome: envelope.ok ? "ok" : envelope.error.code,
      ...(envelope.ok ? {} : { error: envelope.error.message }),
      retries,
      durationMs: env.clock.now() - startedAt,
    });
    return result;
  };
  const fail = (code: ErrorCode, message: string) =>
    settle({ call, envelope: errorEnvelope(code, message, env.maxResultChars) });

  // Once the run is aborted nothing new starts: a call still waiting for a slot gets no gate at all.
  if (env.signal.aborted) return fail("aborted", "the run was aborted");

  // A Map, not an object lookup: "__proto__" or "toString" must never find something to run.
  const tool = env.tools.get(call.name);
  if (!tool) {
    const known = [...env.tools.keys()].join(", ");
    return fail("unknown_tool", `no tool named "${call.name}"; available tools: ${known}`);
  }
  const choice = env.toolChoice;
  if (choice === "none") return fail("tool_choice", "tool_choice is \"none\": no tool may be called");
  if (typeof choice === "object" && choice.name !== call.name) {
    return fail("tool_choice", `tool_choice requires "${choice.name}", not "${call.name}"`);
  }

  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) {
    validation = "failed";
    return fail("invalid_arguments", parsed.message);
  }
  const args = parsed.value;
  argsForTrace = canonicalJson(args);
  const problems = checkArguments(tool.parameters, args);
  validation = problems.length === 0 ? "ok" : "failed";
  if (problems.length > 0) {
    return fail("invalid_arguments", problems.map((p) => `${p.path || "/"}: ${p.message}`).join("; "));
  }

  const request = { runId: env.runId, call: { id: call.id, name: call.name, arguments: args } };
  if (env.policy) {
    const policy = env.policy;
    let decision: PolicyDecision | typeof ABORTED;
    try {
      // Raced against the abort: a policy that never answers must not hold an aborted run.
      decision = await raceAbort(new Promise<PolicyDecision>((resolve) => resolve(policy({ ...request, step: env.step, history: env.history }))), env.signal);
    } catch {
      // A broken policy must fail closed: no decision is a "no".
      decision = { allow: false, reason: "the policy check failed" };
    }
    // The run may have been aborted while the policy decided: then nobody is asked for approval.
    if (decision === ABORTED || env.signal.aborted) return fail("aborted", "the run was aborted");
    // Only an explicit allow lets the call through; anything else is a "no".
    if (decision?.allow !== true) return fail("denied", String((decision as { reason?: unknown })?.reason ?? "denied by policy"));
  }
  if (tool.dangerous) {
    const approve = env.approve;
    let approved: boolean | typeof ABORTED = false;
    try {
      // Asked once per call, whatever the retries: an approval covers the call, not one attempt.
      approved = approve ? await raceAbort(new Promise<boolean>((resolve) => resolve(approve(request))), env.signal) : false;
    } catch {
      approved = false;
    }
    if (approved === ABORTED || env.signal.aborted) return fail("aborted", "the run was aborted");
    if (approved !== true) return fail("not_approved", `"${call.name}" needs approval and was not approved`);
  }

  const outcome = await runWithRetries(tool, args, {
    callId: call.id,
    runId: env.runId,
    timeoutMs: tool.timeoutMs ?? env.timeoutMs,
    retries: tool.retries ?? env.retries,
    backoffBaseMs: env.backoffBaseMs,
    clock: env.clock,
    signal: env.signal,
  });
  retries = outcome.retries;
  const executed = { name: call.name, arguments: args, ok: outcome.ok };
  if (!outcome.ok) {
    return settle({ call, executed, envelope: errorEnvelope(outcome.code, outcome.message, env.maxResultChars) });
  }
  let envelope: Envelope;
  try {
    envelope = okEnvelope(outcome.value, env.maxResultChars);
  } catch {
    // JSON.stringify throws on cycles and BigInt: still an answer, never a crash.
    return settle({ call, executed: { ...executed, ok: false }, envelope: errorEnvelope("tool_error", "the result is not JSON-serializable", env.maxResultChars) });
  }
  const answer = finishAnswer(outcome.value);
  return settle({ call, executed, envelope, ...(answer === undefined ? {} : { finish: maskSecrets(answer) }) });
}

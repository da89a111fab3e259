// The public types of kata 3: read them first. Every other file speaks in these terms.

/** A JSON Schema, restricted to the subset the loop checks (see arguments.ts). */
export type JsonSchema = {
  type?: "object" | "string" | "number" | "integer" | "boolean" | "array" | "null";
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: unknown[];
  items?: JsonSchema;
  description?: string;
  [keyword: string]: unknown;
};

/** One tool call as it is stored in the history: `arguments` is always JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; name: string; content: string; is_error: boolean };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** What the model returns. `arguments` may be an object or a JSON string; `id` may be missing. */
export interface ModelReply {
  content?: string | null;
  tool_calls?: Array<{ id?: string; name: string; arguments?: Record<string, unknown> | string | null }>;
  usage?: Usage;
}

/** What the model sees of a tool: everything but `execute` and the runtime options. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

export interface ModelRequest {
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice: ToolChoice;
  signal: AbortSignal;
}

export type Model = (request: ModelRequest) => Promise<ModelReply>;

export interface ToolContext {
  /** Aborted when the attempt times out or the run is aborted; each attempt gets a fresh one. */
  signal: AbortSignal;
  callId: string;
  runId: string;
  /** 1 for the first execution of this call, 2 for the first retry, ... */
  attempt: number;
}

export interface Tool extends ToolDefinition {
  execute(args: Record<string, unknown>, ctx: ToolContext): unknown;
  /** Needs `approve` to say yes, asked once per call (not again for its retries). */
  dangerous?: boolean;
  /** Overrides `toolTimeoutMs` for this tool. */
  timeoutMs?: number;
  /** Overrides `retries` for this tool. */
  retries?: number;
}

/** The injected time source: every wait of the loop goes through it. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export type ErrorCode =
  | "unknown_tool"
  | "tool_choice"
  | "invalid_arguments"
  | "denied"
  | "not_approved"
  | "repeated_call"
  | "tool_error"
  | "timeout"
  | "unavailable"
  | "aborted";

/** The one shape every tool result takes on its way back to the model. */
export type Envelope = { ok: true; data: unknown } | { ok: false; error: { code: ErrorCode; message: string } };

export interface ApprovalRequest {
  runId: string;
  call: { id: string; name: string; arguments: Record<string, unknown> };
}

export interface PolicyRequest extends ApprovalRequest {
  step: number;
  /** The calls of earlier steps that were executed, in order, with whether they succeeded. */
  history: Array<{ name: string; arguments: Record<string, unknown>; ok: boolean }>;
}

export type PolicyDecision = { allow: true } | { allow: false; reason: string };

export type RunStatus = "completed" | "max_steps" | "repeated_call" | "budget_exhausted" | "finished" | "aborted";

export type Validation = "ok" | "failed" | "not_checked";

export type TraceEvent =
  | { type: "run_start"; runId: string; at: number }
  | { type: "step"; runId: string; at: number; step: number; toolCalls: number; usage: Usage }
  | {
      type: "tool_call";
      runId: string;
      at: number;
      step: number;
      callId: string;
      name: string;
      /** Canonical JSON of the arguments, masked. */
      arguments: string;
      validation: Validation;
      outcome: "ok" | ErrorCode;
      /** The envelope's error message (masked, cut) when outcome is not "ok". */
      error?: string;
      retries: number;
      durationMs: number;
    }
  | { type: "run_end"; runId: string; at: number; status: RunStatus; steps: number };

/** Numeric options out of their README ranges make runAgent reject with a RangeError naming them. */
export interface AgentOptions {
  model: Model;
  tools: Tool[];
  /** The conversation so far (system, user, ...). Never mutated. */
  messages: Message[];
  maxSteps?: number;
  maxRepeatedCalls?: number;
  tokenBudget?: number;
  concurrency?: number;
  toolTimeoutMs?: number;
  retries?: number;
  backoffBaseMs?: number;
  maxResultChars?: number;
  toolChoice?: ToolChoice;
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  policy?: (request: PolicyRequest) => PolicyDecision | Promise<PolicyDecision>;
  signal?: AbortSignal;
  clock?: Clock;
  runId?: string;
  /** Called with every event as it happens; an exception it throws is ignored. */
  onTrace?: (event: TraceEvent) => void;
}

export interface RunResult {
  runId: string;
  status: RunStatus;
  /** The final answer for "completed" and "finished"; null for every other status. */
  finalText: string | null;
  messages: Message[];
  /** How many times the model was asked. */
  steps: number;
  usage: Usage & { total_tokens: number };
  trace: TraceEvent[];
}

// Kata 2's benchmark inputs, for `npm run bench` (the reference beside Ajv, @cfworker/json-schema
// and JSON.parse) and `npm run compare` (a candidate beside the reference). Not a spec.
//
//   - validation: every BFCL ground-truth call (spec/data/bfcl) against its tool's schema, once as
//     the model gave it (valid, but for BFCL's few known defects) and once mutated the ways models
//     get arguments wrong (wrong type, missing required argument, value outside an enum, an extra
//     argument under additionalProperties: false);
//   - extraction: the same calls as OpenAI assistant messages (`tool_calls` with `arguments` as a
//     JSON string), as raw text and wrapped in prose and a code fence.
import type { BenchCase } from "../support/bench-case.ts";
import { loadBfclCalls, toJsonSchema } from "./bfcl.ts";

type Kata2 = typeof import("../../solutions/02-schema-validation/index.ts");
type Obj = Record<string, unknown>;

export interface Validation {
  id: string;
  /** Parsed once and reused, as a runtime does with a tool's schema. */
  schema: Obj;
  arguments: Obj;
}

export interface Message {
  /** The assistant message as the provider's JSON text. */
  text: string;
  /** The same JSON inside prose and a ```json fence, as a model without native tools writes it. */
  inProse: string;
  /** Where the JSON sits inside `inProse`. */
  start: number;
  end: number;
  calls: number;
}

export interface Corpus {
  valid: Validation[];
  /** A few tools called again and again, as in one application: HOT_TOOLS calls, spread over BFCL. */
  hot: Validation[];
  mutated: Validation[];
  messages: Message[];
}

/** A value of another JSON type than `type`. */
function wrongType(type: unknown): unknown {
  return type === "string" ? 42 : type === "object" ? "an object" : type === "array" ? { not: "an array" } : "a string";
}

/**
 * One mistake per call, taking turns between the four kinds; a kind that does not apply to the
 * call (no enum, no required argument given...) passes its turn to the next one.
 */
function mutate(call: Validation, turn: number): Validation {
  const properties = (call.schema.properties ?? {}) as Record<string, Obj>;
  const present = Object.keys(call.arguments).filter((k) => Object.hasOwn(properties, k));
  const mistakes: Array<() => Validation | undefined> = [
    () => {
      const name = present.find((k) => typeof properties[k].type === "string");
      return name === undefined ? undefined : { ...call, arguments: { ...call.arguments, [name]: wrongType(properties[name].type) } };
    },
    () => {
      const name = ((call.schema.required ?? []) as string[]).find((k) => Object.hasOwn(call.arguments, k));
      if (name === undefined) return undefined;
      const args = { ...call.arguments };
      delete args[name];
      return { ...call, arguments: args };
    },
    () => {
      const name = present.find((k) => Array.isArray(properties[k].enum));
      return name === undefined ? undefined : { ...call, arguments: { ...call.arguments, [name]: "__not_in_the_enum__" } };
    },
    () => ({ ...call, schema: { ...call.schema, additionalProperties: false }, arguments: { ...call.arguments, unexpected_extra: 1 } }),
  ];
  for (let k = 0; k < mistakes.length; k++) {
    const mutated = mistakes[(turn + k) % mistakes.length]();
    if (mutated) return mutated;
  }
  throw new Error("unreachable: the extra argument always applies");
}

let corpus: Corpus | undefined;

export const HOT_TOOLS = 20;
/** How many times each hot tool is called in one operation. */
export const HOT_REPEAT = 50;

/** Built once per process: every case (and every peer in `npm run bench`) shares the same data. */
export function bfclCorpus(): Corpus {
  if (corpus) return corpus;
  const calls = loadBfclCalls();
  const valid: Validation[] = calls.map((c) => ({ id: c.id, schema: toJsonSchema(c.parameters), arguments: c.arguments }));
  const mutated = valid.map((c, i) => mutate(c, i));
  // One assistant message per BFCL case ("simple_python_0#0" and "#1" are one reply).
  const byCase = new Map<string, typeof calls>();
  for (const c of calls) {
    const key = c.id.slice(0, c.id.lastIndexOf("#"));
    byCase.set(key, [...(byCase.get(key) ?? []), c]);
  }
  const messages = [...byCase].map(([key, group]): Message => {
    const message = {
      role: "assistant",
      content: null,
      tool_calls: group.map((c, i) => ({ id: `call_${key}_${i}`, type: "function", function: { name: c.tool, arguments: JSON.stringify(c.arguments) } })),
    };
    const text = JSON.stringify(message);
    const before = "I'll look that up for you (it only takes a moment).\n```json\n";
    return { text, inProse: `${before}${text}\n\`\`\`\nDone.`, start: before.length, end: before.length + text.length, calls: group.length };
  });
  const hot = Array.from({ length: HOT_TOOLS }, (_, i) => valid[Math.floor((i * valid.length) / HOT_TOOLS)]);
  corpus = { valid, hot, mutated, messages };
  return corpus;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const argumentBytes = (calls: Validation[]) => sum(calls.map((c) => Buffer.byteLength(JSON.stringify(c.arguments))));

export const CASE_NAMES = {
  valid: "validate BFCL ground truths",
  hot: `validate ${HOT_TOOLS} BFCL tools, ${HOT_REPEAT} calls each`,
  mutated: "validate mutated BFCL arguments",
  messages: "extract tool_calls messages (raw JSON text)",
  inProse: "extract tool_calls messages (JSON in prose and a fence)",
};

export default function benchCases(impl: Kata2): BenchCase[] {
  const { valid, hot, mutated, messages } = bfclCorpus();
  const validation = (name: string, calls: Validation[], repeat = 1): BenchCase => ({
    name,
    bytes: argumentBytes(calls) * repeat,
    items: { count: calls.length * repeat, unit: "call" },
    run: () => {
      let invalid = 0;
      for (let r = 0; r < repeat; r++) for (const c of calls) if (!impl.validate(c.schema, c.arguments).valid) invalid++;
      return invalid;
    },
  });
  const extraction = (name: string, texts: string[]): BenchCase => ({
    name,
    bytes: sum(texts.map((t) => Buffer.byteLength(t))),
    items: { count: sum(messages.map((m) => m.calls)), unit: "call" },
    run: () => {
      let found = 0;
      for (const text of texts) found += impl.extractToolCalls(text).calls.length;
      return found;
    },
  });
  return [
    validation(CASE_NAMES.valid, valid),
    validation(CASE_NAMES.hot, hot, HOT_REPEAT),
    validation(CASE_NAMES.mutated, mutated),
    extraction(CASE_NAMES.messages, messages.map((m) => m.text)),
    extraction(CASE_NAMES.inProse, messages.map((m) => m.inProse)),
  ];
}

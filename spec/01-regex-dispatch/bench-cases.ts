// Kata 1's benchmark inputs, for `npm run bench` (the reference beside JSON.parse) and
// `npm run compare` (a candidate beside the reference). Not a spec: nothing here is graded.
//
//   - real replies: the ground-truth calls of BFCL (spec/data/bfcl) written as a model writes
//     them in text, `name(key=value, ...)` between lines of prose, from 1 KiB to 1 MiB;
//   - adversarial text: the shapes that make a backtracking parser blow up (brackets that never
//     close, a quote that never ends, deep nesting), from 10 KiB to 1 MiB, where a linear parser
//     keeps the same time per byte.
import { readFileSync } from "node:fs";
import type { BenchCase } from "../support/bench-case.ts";
import { asciiStyle, objectOf, renderCall, type CallSpec } from "./arbitraries.ts";
import type { Value } from "../../solutions/01-regex-dispatch/index.ts";

type Kata1 = typeof import("../../solutions/01-regex-dispatch/index.ts");

const KiB = 1 << 10;
const MiB = 1 << 20;
export const REPLY_SIZES = [KiB, 16 * KiB, 256 * KiB, MiB];
export const ADVERSARIAL_SIZES = [10 * KiB, 100 * KiB, MiB];

const CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple"];

const jsonLines = (path: string): any[] =>
  readFileSync(new URL(`../data/bfcl/${path}`, import.meta.url), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

/** Each BFCL answer's calls, with the first acceptable value of each parameter ("" = omit). */
function bfclAnswers(): CallSpec[][] {
  return CATEGORIES.flatMap((category) =>
    jsonLines(`possible_answer/BFCL_v4_${category}.json`).map((answer) =>
      answer.ground_truth.map((call: Record<string, Record<string, Value[]>>): CallSpec => {
        const [name, params] = Object.entries(call)[0];
        const kwargs = Object.entries(params).flatMap(([key, options]) => {
          const chosen = options.find((option) => option !== "");
          return chosen === undefined ? [] : [[key, chosen] as const];
        });
        return { name, args: [], kwargs: objectOf(kwargs) };
      })));
}

export interface Replies {
  /** The replies, one after the other, as the model's text. */
  text: string;
  /** The same calls as one JSON document: what JSON.parse reads instead. */
  json: string;
  /** How many calls the text holds (and the JSON). */
  calls: number;
}

let answers: CallSpec[][] | undefined;
const python = { ...asciiStyle, python: true };

/**
 * BFCL answers as replies ("Sure, ..." then the calls, one per line, then a closing sentence),
 * one after the other until `size` characters: whole replies only, so no call is cut off.
 */
export function bfclReplies(size: number): Replies {
  answers ??= bfclAnswers();
  const parts: string[] = [];
  const json: CallSpec[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const calls = answers[i % answers.length];
    const reply = `Sure, I will call ${calls.length === 1 ? "the tool" : "the tools"} (one moment).\n${calls.map((c) => renderCall(c, python)).join("\n")}\nThat should answer it.\n\n`;
    if (length + reply.length > size && parts.length > 0) break;
    parts.push(reply);
    json.push(...calls);
    length += reply.length;
  }
  const payload = { tool_calls: json.map((c) => ({ name: c.name, arguments: c.kwargs })) };
  return { text: parts.join(""), json: JSON.stringify(payload), calls: json.length };
}

/** Text a backtracking parser chokes on, `size` characters of it. */
export const ADVERSARIAL: Record<string, (size: number) => string> = {
  "unbalanced parentheses": (n) => "f(" + "(".repeat(n - 2),
  "an endless quote": (n) => `f("` + "x".repeat(n - 3),
  "deep nesting": (n) => "f(" + "[".repeat(n - 2),
  "f( repeated": (n) => "f(".repeat(n >> 1),
  "lists that never close": (n) => `[a("${"x".repeat(24)}"), `.repeat(Math.ceil(n / 34)).slice(0, n),
  "a marker with an endless object": (n) => (`TOOL_CALL: {"a": [` + "1, ".repeat(n / 3)).slice(0, n),
};

export const replyCaseName = (size: number) => `BFCL replies as text, ${sizeLabel(size)}`;
export const adversarialCaseName = (shape: string, size: number) => `adversarial: ${shape}, ${sizeLabel(size)}`;

export function sizeLabel(size: number): string {
  return size % MiB === 0 ? `${size / MiB} MiB` : `${size / KiB} KiB`;
}

export default function benchCases(impl: Kata1): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const size of REPLY_SIZES) {
    const { text, calls } = bfclReplies(size);
    cases.push({
      name: replyCaseName(size),
      bytes: Buffer.byteLength(text),
      items: { count: calls, unit: "call" },
      run: () => impl.parseToolCalls(text),
    });
  }
  for (const [shape, make] of Object.entries(ADVERSARIAL)) {
    for (const size of ADVERSARIAL_SIZES) {
      const text = make(size);
      cases.push({ name: adversarialCaseName(shape, size), bytes: text.length, run: () => impl.parseToolCalls(text) });
    }
  }
  return cases;
}

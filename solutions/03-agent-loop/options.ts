// The run's options are checked once, before anything happens: a limit that cannot mean anything
// (maxSteps 0, concurrency NaN, a timeout of -1) is the caller's bug, and an error that names the
// option says so at once, instead of a run that never stops or refuses every call.
import type { AgentOptions } from "./types.ts";

/** The largest delay setTimeout honours; past it Node fires the timer after 1 ms. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const isInteger = (n: number) => Number.isInteger(n);

/** [option, rule in words, test]: undefined always means "the default". */
const RULES: Array<[keyof AgentOptions, string, (n: number) => boolean]> = [
  ["maxSteps", "an integer >= 1", (n) => isInteger(n) && n >= 1],
  ["maxRepeatedCalls", "an integer >= 2 or Infinity", (n) => (isInteger(n) && n >= 2) || n === Infinity],
  ["tokenBudget", "a number >= 0 or Infinity", (n) => n >= 0],
  ["concurrency", "an integer >= 1 or Infinity", (n) => (isInteger(n) && n >= 1) || n === Infinity],
  ["toolTimeoutMs", `a number > 0 and <= ${MAX_TIMEOUT_MS}`, (n) => n > 0 && n <= MAX_TIMEOUT_MS],
  ["retries", "an integer >= 0", (n) => isInteger(n) && n >= 0],
  ["backoffBaseMs", "a finite number >= 0", (n) => Number.isFinite(n) && n >= 0],
  ["maxResultChars", "an integer >= 0", (n) => isInteger(n) && n >= 0],
];

function checkNumber(name: string, value: unknown, rule: string, ok: (n: number) => boolean): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !ok(value)) throw new RangeError(`${name} must be ${rule}`);
}

/** Throws a RangeError naming the first option that has no meaning. */
export function checkOptions(options: AgentOptions): void {
  for (const [name, rule, ok] of RULES) checkNumber(name, options[name], rule, ok);
  const names = new Set<string>();
  for (const tool of options.tools) {
    if (names.has(tool.name)) throw new RangeError(`tools: two tools are named "${tool.name}"`);
    names.add(tool.name);
    checkNumber(`timeoutMs of tool "${tool.name}"`, tool.timeoutMs, RULES[4][1], RULES[4][2]);
    checkNumber(`retries of tool "${tool.name}"`, tool.retries, RULES[5][1], RULES[5][2]);
  }
  const choice: unknown = options.toolChoice;
  const valid =
    choice === undefined ||
    choice === "auto" ||
    choice === "none" ||
    choice === "required" ||
    (typeof choice === "object" && choice !== null && typeof (choice as { name?: unknown }).name === "string");
  if (!valid) throw new RangeError('toolChoice must be "auto", "none", "required" or { name: string }');
}

// Real tool schemas from the Berkeley Function Calling Leaderboard (spec/data/bfcl/), turned into
// standard JSON Schema, with the ground-truth arguments of each case.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BFCL_DIR = fileURLToPath(new URL("../data/bfcl/", import.meta.url));
export const BFCL_FILES = ["BFCL_v4_simple_python.json", "BFCL_v4_multiple.json", "BFCL_v4_parallel.json", "BFCL_v4_parallel_multiple.json"];

type Obj = Record<string, unknown>;

/** BFCL's Python-flavoured type names, in standard JSON Schema. `any` means no constraint. */
const TYPE_MAP: Record<string, string | undefined> = {
  dict: "object",
  float: "number",
  tuple: "array",
  any: undefined,
  string: "string",
  integer: "integer",
  boolean: "boolean",
  array: "array",
};
/** Keys copied as they are; everything else (BFCL's own `optional`, ...) is dropped. */
const KEPT = ["description", "default", "enum", "format", "maximum", "minimum", "required"];

export interface ConvertOptions {
  /** Add `additionalProperties: false` to every object schema that lists properties. */
  closed?: boolean;
}

/** BFCL `parameters` -> JSON Schema (draft 2020-12 subset). */
export function toJsonSchema(bfcl: Obj, options: ConvertOptions = {}): Obj {
  const out: Obj = {};
  if (typeof bfcl.type === "string") {
    if (!Object.hasOwn(TYPE_MAP, bfcl.type)) throw new Error(`unknown BFCL type ${bfcl.type}`);
    const t = TYPE_MAP[bfcl.type];
    if (t !== undefined) out.type = t;
  }
  for (const key of KEPT) if (Object.hasOwn(bfcl, key)) out[key] = bfcl[key];
  if (typeof bfcl.properties === "object" && bfcl.properties !== null) {
    out.properties = Object.fromEntries(Object.entries(bfcl.properties).map(([k, v]) => [k, toJsonSchema(v as Obj, options)]));
    if (options.closed) out.additionalProperties = false;
  }
  if (typeof bfcl.items === "object" && bfcl.items !== null) out.items = toJsonSchema(bfcl.items as Obj, options);
  return out;
}

export interface BfclCall {
  /** "simple_python_0#0": the case id and the call's position in its ground truth. */
  id: string;
  tool: string;
  /** The tool's `parameters`, as BFCL wrote them. */
  parameters: Obj;
  /** The first acceptable value of each parameter ("" means "may be left out" and is skipped). */
  arguments: Obj;
}

function readLines(path: string): Obj[] {
  return readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Obj);
}

/**
 * BFCL lists, for each parameter, the acceptable values; "" means "may be left out". Nested
 * objects use the same form, key by key, so the choice recurses into objects and arrays.
 */
function firstAcceptable(params: Record<string, unknown[]>): Obj {
  const args: Obj = {};
  for (const [name, acceptable] of Object.entries(params)) {
    const first = acceptable.find((v) => v !== "");
    if (first !== undefined) args[name] = unwrap(first);
  }
  return args;
}

function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.every(([, v]) => Array.isArray(v))) return firstAcceptable(value as Record<string, unknown[]>);
  }
  return value;
}

/** Every ground-truth call of the four files, with the schema of the tool it calls. */
export function loadBfclCalls(): BfclCall[] {
  const calls: BfclCall[] = [];
  for (const file of BFCL_FILES) {
    const answers = new Map(readLines(`${BFCL_DIR}possible_answer/${file}`).map((a) => [a.id as string, a.ground_truth as Obj[]]));
    for (const entry of readLines(`${BFCL_DIR}${file}`)) {
      const functions = entry.function as Array<{ name: string; parameters: Obj }>;
      (answers.get(entry.id as string) ?? []).forEach((truth, i) => {
        const [tool, params] = Object.entries(truth)[0] as [string, Record<string, unknown[]>];
        const fn = functions.find((f) => f.name === tool);
        if (!fn) return;
        calls.push({ id: `${entry.id}#${i}`, tool, parameters: fn.parameters, arguments: firstAcceptable(params) });
      });
    }
  }
  return calls;
}

/**
 * Ground truths that contradict BFCL's own schema (data defects, not validator bugs). The spec
 * checks that each one is indeed rejected, at the path given here.
 */
export const KNOWN_BFCL_DEFECTS: Record<string, { path: string; reason: string }> = {
  "simple_python_307#0": { path: "/venue", reason: "a boolean where the schema says string" },
  "parallel_152#0": { path: "/mod", reason: "null where the schema says float" },
  "parallel_152#1": { path: "/mod", reason: "null where the schema says float" },
  "parallel_multiple_21#1": { path: "/x", reason: "a Python expression string where the schema says array" },
  "parallel_multiple_94#0": { path: "/elements/0", reason: "fruit names where the schema says an array of integers" },
};

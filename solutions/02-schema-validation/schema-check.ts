// The schema is checked as a whole before any instance is looked at: a keyword outside the
// subset, or a keyword with a value of the wrong shape, is the tool author's mistake and must be
// loud (a SchemaError), never silently ignored. Silently ignoring `minimum` means accepting -5.
import { isFormatName } from "./formats.ts";
import { childPointer, unescapeSegment } from "./pointer.ts";
import { compilePattern } from "./safe-pattern.ts";
import { MAX_DEPTH, SchemaError, type Schema } from "./types.ts";

export const TYPE_NAMES = ["string", "number", "integer", "boolean", "object", "array", "null"] as const;

/** Keywords with no effect on validation: accepted and ignored. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "$schema", "$comment"]);

type Rule = (value: unknown, at: string, depth: number, root: Schema) => void;

const nonNegativeInteger: Rule = (v, at) => need(Number.isInteger(v) && (v as number) >= 0, at, "a non-negative integer");
const finiteNumber: Rule = (v, at) => need(typeof v === "number" && Number.isFinite(v), at, "a number");
const subschema: Rule = (v, at, depth, root) => checkNode(v, at, depth + 1, root);
const schemaMap: Rule = (v, at, depth, root) => {
  need(isPlainObject(v), at, "an object of schemas");
  for (const [name, s] of Object.entries(v as object)) checkNode(s, childPointer(at, name), depth + 1, root);
};
const schemaList: Rule = (v, at, depth, root) => {
  need(Array.isArray(v) && v.length > 0, at, "a non-empty array of schemas");
  (v as unknown[]).forEach((s, i) => checkNode(s, childPointer(at, i), depth + 1, root));
};

/** Every supported keyword and what its value must be. */
const RULES: Record<string, Rule> = {
  type: (v, at) => {
    const names = Array.isArray(v) ? v : [v];
    const ok = names.length > 0 && names.every((n) => (TYPE_NAMES as readonly unknown[]).includes(n)) && new Set(names).size === names.length;
    need(ok, at, `one of ${TYPE_NAMES.join(", ")} or a non-empty array of them`);
  },
  properties: schemaMap,
  $defs: schemaMap,
  required: (v, at) =>
    need(Array.isArray(v) && v.every((n) => typeof n === "string") && new Set(v).size === v.length, at, "an array of distinct strings"),
  additionalProperties: subschema,
  items: subschema, // draft 2020-12: one schema for every item (the array form is prefixItems, unsupported)
  not: subschema,
  anyOf: schemaList,
  oneOf: schemaList,
  allOf: schemaList,
  enum: (v, at) => need(Array.isArray(v), at, "an array"),
  const: () => {},
  minItems: nonNegativeInteger,
  maxItems: nonNegativeInteger,
  minLength: nonNegativeInteger,
  maxLength: nonNegativeInteger,
  uniqueItems: (v, at) => need(typeof v === "boolean", at, "a boolean"),
  pattern: (v, at) => {
    need(typeof v === "string", at, "a string");
    compilePattern(v as string, at);
  },
  minimum: finiteNumber,
  maximum: finiteNumber,
  exclusiveMinimum: finiteNumber,
  exclusiveMaximum: finiteNumber,
  multipleOf: (v, at) => need(typeof v === "number" && Number.isFinite(v) && v > 0, at, "a number greater than 0"),
  format: (v, at) => {
    need(typeof v === "string", at, "a string");
    if (!isFormatName(v)) throw new SchemaError("unsupported_keyword", at, `unsupported format ${JSON.stringify(v)} (supported: date, date-time, email, uuid)`);
  },
  $ref: (v, at, _depth, root) => {
    need(typeof v === "string", at, "a string");
    resolveRef(root, v as string, at);
  },
};

/**
 * Throws a SchemaError for the first problem found in `schema`, walking it in document order.
 * `validate` checks a schema once, on its first use, then keeps it compiled (validate.ts).
 */
export function checkSchema(schema: Schema): void {
  checkNode(schema, "", 0, schema);
  findRefCycle(schema);
}

/**
 * A `$ref` loop that never moves into the instance: a chain of `$ref`, `allOf`, `anyOf`, `oneOf`
 * and `not` steps that leads from a schema back to itself. Such a loop would run forever on any
 * value it is reached with, so it is refused up front, whatever the instance. Every loop goes
 * through a `$ref` target (the root or one of its `$defs`), so a depth-first walk from each of
 * them finds it; the error points at the `$ref` that closes the loop.
 */
function findRefCycle(root: Schema): void {
  const starts: Array<[Schema, string]> = [[root, ""]];
  const defs = typeof root === "object" && Object.hasOwn(root, "$defs") ? (root.$defs as Record<string, Schema>) : {};
  for (const name of Object.keys(defs)) starts.push([defs[name], childPointer("/$defs", name)]);
  const done = new Set<unknown>(); // schemas whose in-place steps are known to end
  const onPath = new Set<unknown>();
  // An explicit stack (a chain of $refs across many definitions can be long): each frame is a
  // schema and the in-place steps from it not yet walked.
  const stack: Array<{ node: object; next: Array<[Schema, string]> }> = [];
  const enter = (node: Schema, at: string): void => {
    if (typeof node !== "object" || done.has(node)) return;
    const next: Array<[Schema, string]> = [];
    if (Object.hasOwn(node, "$ref")) {
      const refAt = childPointer(at, "$ref");
      const target = resolveRef(root, node.$ref as string, refAt);
      if (target.schema === node || onPath.has(target.schema)) {
        throw new SchemaError("ref_cycle", refAt, `$ref ${JSON.stringify(node.$ref)} leads back to itself without moving into the instance`);
      }
      next.push([target.schema, target.schemaPath]);
    }
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      if (Object.hasOwn(node, keyword)) (node[keyword] as Schema[]).forEach((s, i) => next.push([s, childPointer(childPointer(at, keyword), i)]));
    }
    if (Object.hasOwn(node, "not")) next.push([node.not as Schema, childPointer(at, "not")]);
    next.reverse(); // popped from the end: walked in document order
    onPath.add(node);
    stack.push({ node, next });
  };
  for (const [schema, at] of starts) {
    enter(schema, at);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const step = top.next.pop();
      if (step) {
        enter(step[0], step[1]);
      } else {
        stack.pop();
        onPath.delete(top.node);
        done.add(top.node);
      }
    }
  }
}

function checkNode(node: unknown, at: string, depth: number, root: Schema): void {
  if (typeof node === "boolean") return;
  if (!isPlainObject(node)) throw new SchemaError("invalid_keyword", at, `expected a schema (an object or a boolean) at ${JSON.stringify(at)}`);
  if (depth > MAX_DEPTH) throw new SchemaError("too_deep", at, `the schema is nested deeper than ${MAX_DEPTH} levels`);
  for (const [keyword, value] of Object.entries(node)) {
    const keywordAt = childPointer(at, keyword);
    if (ANNOTATIONS.has(keyword)) continue;
    if (!Object.hasOwn(RULES, keyword)) {
      throw new SchemaError("unsupported_keyword", keywordAt, `unsupported keyword ${JSON.stringify(keyword)}`);
    }
    RULES[keyword](value, keywordAt, depth, root);
  }
}

/**
 * The schema that a `$ref` names, and its schema path. Only "#" (the root) and "#/$defs/<name>"
 * are supported; <name> is a JSON Pointer segment inside a URI fragment, so it is percent-decoded
 * first, then ~1 and ~0 are unescaped.
 */
export function resolveRef(root: Schema, ref: string, at: string): { schema: Schema; schemaPath: string } {
  if (ref === "#") return { schema: root, schemaPath: "" };
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  if (!m) throw new SchemaError("unsupported_ref", at, `unsupported $ref ${JSON.stringify(ref)} (only "#" and "#/$defs/<name>")`);
  let name: string;
  try {
    name = unescapeSegment(decodeURIComponent(m[1]));
  } catch {
    throw new SchemaError("unsupported_ref", at, `$ref ${JSON.stringify(ref)} is not a valid URI fragment`);
  }
  const defs = typeof root === "object" && Object.hasOwn(root, "$defs") ? root.$defs : undefined;
  if (!isPlainObject(defs) || !Object.hasOwn(defs, name)) {
    throw new SchemaError("unresolved_ref", at, `$ref ${JSON.stringify(ref)} names no definition in $defs`);
  }
  return { schema: defs[name] as Schema, schemaPath: childPointer("/$defs", name) };
}

function need(ok: boolean, at: string, what: string): void {
  if (!ok) throw new SchemaError("invalid_keyword", at, `${at.split("/").pop()} must be ${what}`);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

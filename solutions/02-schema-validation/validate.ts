// The validator. A schema is compiled once, on its first use, into a tree of plain objects
// (`Compiled`, one per schema object) that hold its keywords' values ready to use; `apply` then
// walks that tree along the instance and collects every error, in the README's order.
//
// Why compile: a runtime validates every call of the same few tools. Reading the schema again on
// every call (is the keyword there: an own-property lookup per keyword per schema; its value; the
// schema path of its error) was most of the time of the interpreter this replaces. Here that is
// done once per schema, kept in a WeakMap by schema object; what is left for each call is the
// checks themselves. No code is generated from text (no `eval`, no `new Function`).
//
// Why objects and not closures (one small function per keyword rule): both were measured
// (docs/benchmarks.md). The closures were a little faster on a few hot tools but 2 to 5 times
// slower on many tools called once each: a tree of closures is more, smaller objects for the
// processor to fetch, and each call through a rule is an indirect call. Here `apply` is the only
// interpreter, each keyword has one compiled field and one check in it, and every compiled
// schema has the same shape, which keeps the engine's property accesses fast.
//
// A schema is data that must not change after its first use.
import { describeValue } from "./feedback.ts";
import { FORMATS, type FormatName } from "./formats.ts";
import { jsonEqual } from "./json-equal.ts";
import { childPointer, escapeSegment } from "./pointer.ts";
import { compilePattern } from "./safe-pattern.ts";
import { checkSchema, isPlainObject, resolveRef } from "./schema-check.ts";
import {
  MAX_DEPTH,
  type Coercion,
  type Schema,
  type ValidateOptions,
  type ValidationError,
  type ValidationResult,
} from "./types.ts";

type Obj = Record<string, unknown>;

/**
 * Validates `instance` against `schema`. Throws a SchemaError when the schema is outside the
 * subset; otherwise returns every error (see the README for their order).
 */
export function validate(schema: Schema, instance: unknown, options?: ValidateOptions): ValidationResult {
  const root = compiled(schema);
  if (nestingDepthExceeds(instance, MAX_DEPTH)) {
    return depthError(`expected at most ${MAX_DEPTH} levels of nested arrays and objects, got a deeper value`, instance);
  }
  const coerce = options?.coerce === true;
  try {
    let errors: ValidationError[] = [];
    const run = new Run(coerce);
    apply(root, instance, "", 1, run, errors);
    if (!coerce) return { valid: errors.length === 0, errors, value: instance, coercions: [] };
    const coercions = run.coercions === undefined ? [] : [...run.coercions.values()];
    const value = applyCoercions(instance, coercions);
    if (coercions.length > 0) {
      // The errors are those of the value handed back: every keyword sees the coerced numbers,
      // wherever the coercion was decided (an allOf sibling's `maximum` included).
      errors = [];
      apply(root, value, "", 1, new Run(false), errors);
    }
    return { valid: errors.length === 0, errors, value, coercions };
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    return depthError(`expected a value that validates within ${MAX_EVAL_DEPTH} nested schemas, got one that needs more`, instance);
  }
}

/** Schemas applied inside one another, at most (5 x MAX_DEPTH): a recursive `$ref` schema times
 * a deep instance could otherwise nest far deeper than either, and overflow the stack. */
const MAX_EVAL_DEPTH = 5 * MAX_DEPTH;
/** Thrown from deep inside a validation that goes past MAX_EVAL_DEPTH; caught by `validate`. */
const TOO_DEEP = Symbol("too deep");

/** The one error of a value too deep to validate; nothing is coerced, nothing copied. */
function depthError(message: string, instance: unknown): ValidationResult {
  return { valid: false, errors: [{ path: "", keyword: "depth", message, schemaPath: "" }], value: instance, coercions: [] };
}

/**
 * Measured without recursion (an explicit stack), so that a 10,000-deep array is a clear error
 * instead of a stack overflow, here and in every recursive step after this check. It runs on
 * every call, so it makes no array of children (no Object.values) and stacks only containers.
 */
function nestingDepthExceeds(instance: unknown, max: number): boolean {
  let value = instance;
  let depth = 1;
  // Containers still to look into, each followed by its depth. Created on the first nested one:
  // most tool arguments are one flat object.
  let stack: unknown[] | undefined;
  for (;;) {
    if (typeof value === "object" && value !== null) {
      if (depth > max) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const child: unknown = value[i];
          if (typeof child === "object" && child !== null) (stack ??= []).push(child, depth + 1);
        }
      } else {
        for (const key in value) {
          const child = (value as Obj)[key];
          if (typeof child === "object" && child !== null && Object.hasOwn(value, key)) (stack ??= []).push(child, depth + 1);
        }
      }
    }
    if (stack === undefined || stack.length === 0) return false;
    depth = stack.pop() as number;
    value = stack.pop();
  }
}

// --- compiled schemas ----------------------------------------------------------------------

/**
 * A schema object, compiled: each keyword's value as `apply` needs it (with the schema path and
 * the fixed part of the message of its error), `undefined` where the schema lacks the keyword.
 * Grouped as the README orders the evaluation: the keywords for strings, numbers, objects and
 * arrays are only looked at for a value of that type. Subschemas are compiled too.
 */
interface Compiled {
  /** 1. `$ref`: the compiled definition (filled in once compiled: a recursive schema refers to itself). */
  ref: { target: Sub } | undefined;
  /** 2. `type`: the types it accepts, as a mask of type bits (see `typesOf`; every type when the
   * schema has no `type`), the coercion it allows, and what its error says. */
  accepts: number;
  coerce: "number" | "integer" | undefined;
  type: { at: string; expected: string } | undefined;
  enum: { values: unknown[]; at: string; expected: string } | undefined;
  const: { value: unknown; at: string; expected: string } | undefined;
  /** 3 to 6. */
  string: StringKeywords | undefined;
  number: NumberKeyword[] | undefined;
  object: ObjectKeywords | undefined;
  array: ArrayKeywords | undefined;
  /** 7. */
  combinators: Combinators | undefined;
}

/** A compiled subschema: `true` accepts anything; a `false` schema keeps its schema path. */
type Sub = Compiled | FalseSchema | true;

interface FalseSchema {
  falseAt: string;
}

interface StringKeywords {
  format: { isValid: (s: string) => boolean; name: string; at: string } | undefined;
  minLength: { limit: number; at: string } | undefined;
  maxLength: { limit: number; at: string } | undefined;
  pattern: { regex: RegExp; source: string; at: string } | undefined;
}

/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` or `multipleOf`, in that order. */
interface NumberKeyword {
  keyword: string;
  limit: number;
  fails: (value: number, limit: number) => boolean;
  expected: string;
  at: string;
}

interface ObjectKeywords {
  required: { names: string[]; at: string } | undefined;
  /** In the order the schema lists them; `segment` is the name as a pointer segment ("/a~1b"). */
  properties: Array<{ name: string; segment: string; schema: Sub }>;
  /** The subschema for the other members, `false` included (it reports `additionalProperties`). */
  additional: { listed: Set<string>; schema: Sub; at: string } | undefined;
}

interface ArrayKeywords {
  minItems: { limit: number; at: string } | undefined;
  maxItems: { limit: number; at: string } | undefined;
  uniqueItems: { at: string } | undefined;
  items: Sub | undefined;
}

interface Combinators {
  allOf: Sub[] | undefined;
  anyOf: { branches: Sub[]; at: string } | undefined;
  oneOf: { branches: Sub[]; at: string } | undefined;
  not: { branch: Sub; at: string } | undefined;
}

/** Compiled root schemas. Boolean schemas cannot be WeakMap keys and need no compiling. */
const compiledSchemas = new WeakMap<object, Sub>();

/** The compiled form of a root schema, checked (a SchemaError) and compiled on its first use. */
function compiled(schema: Schema): Sub {
  if (schema === true) return true;
  if (schema === false) return { falseAt: "" };
  const known = compiledSchemas.get(schema);
  if (known !== undefined) return known;
  checkSchema(schema);
  const root = new Compiler(schema).compileRoot();
  compiledSchemas.set(schema, root);
  return root;
}

/** Turns one root schema, already checked, into its tree of compiled schemas. */
class Compiler {
  /** `$ref` targets by schema path ("" is the root): each compiled once, so a recursive schema is
   * a loop in the tree, not an endless tree. Compiled after the schema that refers to them. */
  private readonly targets = new Map<string, { target: Sub }>();
  private readonly pending: Array<{ ref: { target: Sub }; schema: Schema; schemaPath: string }> = [];

  constructor(private readonly root: Schema) {}

  compileRoot(): Sub {
    const root = this.target(this.root, "");
    while (this.pending.length > 0) {
      const { ref, schema, schemaPath } = this.pending.pop()!;
      ref.target = this.schema(schema, schemaPath);
    }
    return root.target;
  }

  private target(schema: Schema, schemaPath: string): { target: Sub } {
    let ref = this.targets.get(schemaPath);
    if (!ref) {
      ref = { target: true };
      this.targets.set(schemaPath, ref);
      this.pending.push({ ref, schema, schemaPath });
    }
    return ref;
  }

  /** A schema at `schemaPath`: each keyword it has, read once. */
  schema(schema: Schema, schemaPath: string): Sub {
    if (schema === true) return true;
    if (schema === false) return { falseAt: schemaPath };
    const s = schema as Obj;
    const has = (keyword: string) => Object.hasOwn(s, keyword);
    const at = (keyword: string) => childPointer(schemaPath, keyword);
    const format = has("format") ? (s.format as FormatName) : undefined;
    const listed = has("properties") ? Object.keys(s.properties as Obj) : [];
    return {
      ref: has("$ref") ? this.ref(s.$ref as string, at("$ref")) : undefined,
      ...typeKeyword(has("type") ? (s.type as string | string[]) : undefined, format, at("type")),
      enum: has("enum") ? { values: s.enum as unknown[], at: at("enum"), expected: `expected one of ${describeValue(s.enum)}` } : undefined,
      const: has("const") ? { value: s.const, at: at("const"), expected: `expected ${describeValue(s.const)}` } : undefined,
      string: ["format", "minLength", "maxLength", "pattern"].some(has)
        ? {
            format: format === undefined ? undefined : { isValid: FORMATS[format], name: format, at: at("format") },
            minLength: has("minLength") ? { limit: s.minLength as number, at: at("minLength") } : undefined,
            maxLength: has("maxLength") ? { limit: s.maxLength as number, at: at("maxLength") } : undefined,
            pattern: has("pattern") ? { regex: compilePattern(s.pattern as string, at("pattern")), source: s.pattern as string, at: at("pattern") } : undefined,
          }
        : undefined,
      number: NUMBER_KEYWORDS.some(([keyword]) => has(keyword))
        ? NUMBER_KEYWORDS.filter(([keyword]) => has(keyword)).map(([keyword, fails, expected]) => ({ keyword, limit: s[keyword] as number, fails, expected, at: at(keyword) }))
        : undefined,
      object: ["required", "properties", "additionalProperties"].some(has)
        ? {
            required: has("required") ? { names: s.required as string[], at: at("required") } : undefined,
            properties: listed.map((name) => ({
              name,
              segment: `/${escapeSegment(name)}`,
              schema: this.schema((s.properties as Record<string, Schema>)[name], childPointer(at("properties"), name)),
            })),
            additional: has("additionalProperties")
              ? {
                  listed: new Set(listed),
                  schema: this.schema(s.additionalProperties as Schema, at("additionalProperties")),
                  at: at("additionalProperties"),
                }
              : undefined,
          }
        : undefined,
      array: ["minItems", "maxItems", "uniqueItems", "items"].some(has)
        ? {
            minItems: has("minItems") ? { limit: s.minItems as number, at: at("minItems") } : undefined,
            maxItems: has("maxItems") ? { limit: s.maxItems as number, at: at("maxItems") } : undefined,
            uniqueItems: s.uniqueItems === true ? { at: at("uniqueItems") } : undefined,
            items: has("items") ? this.schema(s.items as Schema, at("items")) : undefined,
          }
        : undefined,
      combinators: ["allOf", "anyOf", "oneOf", "not"].some(has)
        ? {
            allOf: has("allOf") ? this.list(s.allOf as Schema[], at("allOf")) : undefined,
            anyOf: has("anyOf") ? { branches: this.list(s.anyOf as Schema[], at("anyOf")), at: at("anyOf") } : undefined,
            oneOf: has("oneOf") ? { branches: this.list(s.oneOf as Schema[], at("oneOf")), at: at("oneOf") } : undefined,
            not: has("not") ? { branch: this.schema(s.not as Schema, at("not")), at: at("not") } : undefined,
          }
        : undefined,
    };
  }

  /** A `$ref` (checked already: it resolves). */
  private ref(ref: string, at: string): { target: Sub } {
    const { schema, schemaPath } = resolveRef(this.root, ref, at);
    return this.target(schema, schemaPath);
  }

  private list(schemas: Schema[], at: string): Sub[] {
    return schemas.map((sub, i) => this.schema(sub, childPointer(at, i)));
  }
}

/** The numeric keywords, in the order they are evaluated: which values fail against the
 * keyword's limit, and how to say it. */
const NUMBER_KEYWORDS: Array<[keyword: string, fails: (value: number, limit: number) => boolean, expected: string]> = [
  ["minimum", (v, m) => v < m, "a number >="],
  ["maximum", (v, m) => v > m, "a number <="],
  ["exclusiveMinimum", (v, m) => v <= m, "a number >"],
  ["exclusiveMaximum", (v, m) => v >= m, "a number <"],
  ["multipleOf", (v, m) => !isMultipleOf(v, m), "a multiple of"],
];

/**
 * Float-safe: 0.3 is a multiple of 0.1 although 0.3 / 0.1 === 2.9999999999999996 in binary
 * floating point. The quotient must be finite and within 1e-9 of an integer.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const q = value / divisor;
  return Number.isFinite(q) && Math.abs(q - Math.round(q)) < 1e-9;
}

// --- types ---------------------------------------------------------------------------------

/** Each type name as one bit: a `type` keyword is the mask of the types it allows. */
const TYPE_BITS: Record<string, number> = { null: 1, boolean: 2, string: 4, number: 8, integer: 16, array: 32, object: 64 };
const { string: STRING, number: NUMBER, array: ARRAY, object: OBJECT } = TYPE_BITS;
const ANY_TYPE = Object.values(TYPE_BITS).reduce((mask, bit) => mask | bit, 0);

/** The types `value` has, as bits. JSON has one number type: 1.0 is the integer 1, so a whole
 * number is both a number and an integer. NaN, the infinities and what JSON cannot hold
 * (undefined, a function) have no type at all. `object` excludes arrays and null. */
function typesOf(value: unknown): number {
  switch (typeof value) {
    case "string":
      return TYPE_BITS.string;
    case "number":
      if (Number.isInteger(value)) return TYPE_BITS.number | TYPE_BITS.integer;
      return Number.isFinite(value) ? TYPE_BITS.number : 0;
    case "boolean":
      return TYPE_BITS.boolean;
    case "object":
      return value === null ? TYPE_BITS.null : Array.isArray(value) ? TYPE_BITS.array : TYPE_BITS.object;
    default:
      return 0;
  }
}

/** The fields of `Compiled` that come from `type`. */
function typeKeyword(type: string | string[] | undefined, format: string | undefined, at: string): Pick<Compiled, "accepts" | "coerce" | "type"> {
  if (type === undefined) return { accepts: ANY_TYPE, coerce: undefined, type: undefined };
  const names = Array.isArray(type) ? type : [type];
  return {
    accepts: names.reduce((mask, name) => mask | TYPE_BITS[name], 0),
    // A string is coerced only where `type` does not allow strings but allows numbers (or integers).
    coerce: names.includes("string") ? undefined : names.includes("number") ? "number" : names.includes("integer") ? "integer" : undefined,
    // The message names the format of the same schema too: "expected string in format date".
    type: { at, expected: `expected ${names.join(" or ")}${format === undefined ? "" : ` in format ${format}`}` },
  };
}

// --- one validation ------------------------------------------------------------------------

/** What one validation keeps besides its errors: its coercions, how deep it went, the verdicts of
 * anyOf/oneOf/not branches. */
class Run {
  /** The coercions made so far, by path (a path coerced by two schemas is reported once).
   * Created on the first one. */
  coercions: Map<string, Coercion> | undefined;
  /** Coercion may happen here: asked for, and not inside an anyOf, oneOf or not, whose branches
   * only answer "does it match". */
  coercing: boolean;
  /** The deepest level reached so far (see `matches`). */
  deepest = 0;
  /** Verdicts of anyOf/oneOf/not branches by branch and instance path, so that nested branches
   * over recursive $refs do not re-evaluate the same (schema, location) exponentially often.
   * Only without coercion (a location may then hold a string here and its number there). Each
   * verdict keeps how many levels deep its evaluation went, so that reusing it at a deeper level
   * still meets MAX_EVAL_DEPTH exactly where evaluating it again would. Created on first use:
   * most tool schemas have no anyOf, oneOf or not. */
  verdicts: Map<Compiled, Map<string, { matched: boolean; height: number }>> | undefined;

  constructor(readonly coerce: boolean) {
    this.coercing = coerce;
  }
}

/**
 * Appends the errors of `value` (at instance `path`) against `schema`, a schema applied at
 * `level` (the root is 1; a schema applied by a keyword of a schema at level k, a `$ref` target
 * included, is at k + 1), in the README's order of evaluation.
 */
function apply(schema: Sub, value: unknown, path: string, level: number, run: Run, out: ValidationError[]): void {
  if (schema === true) return;
  if ("falseAt" in schema) {
    out.push(error(path, "false", schema.falseAt, `expected nothing here (the schema is false), got ${describeValue(value)}`));
    return;
  }
  // Boolean schemas apply nothing further, so only object schemas count against the limit.
  if (level > MAX_EVAL_DEPTH) throw TOO_DEEP;
  if (level > run.deepest) run.deepest = level;
  const next = level + 1;

  // 1. $ref: the definition applies to the same value, one level deeper.
  if (schema.ref !== undefined) apply(schema.ref.target, value, path, next, run, out);

  // 2. type, enum, const. Coercion comes first: every later keyword sees the number.
  if (schema.coerce !== undefined && run.coercing) value = coerce(value, schema.coerce, path, run);
  const types = typesOf(value);
  // (NaN and the infinities have no type: they fail every `type`, and pass a schema without one.)
  if ((types & schema.accepts) === 0 && schema.type !== undefined) {
    out.push(error(path, "type", schema.type.at, `${schema.type.expected}, got ${describeValue(value)}`));
  }
  if (schema.enum !== undefined && !isOneOf(value, schema.enum.values)) {
    out.push(error(path, "enum", schema.enum.at, `${schema.enum.expected}, got ${describeValue(value)}`));
  }
  if (schema.const !== undefined && !jsonEqual(schema.const.value, value)) {
    out.push(error(path, "const", schema.const.at, `${schema.const.expected}, got ${describeValue(value)}`));
  }

  // 3 to 6: the keywords of the value's own type. NaN and the infinities are not JSON numbers:
  // no type, so no number keyword looks at them.
  if (schema.string !== undefined && types === STRING) stringKeywords(schema.string, value as string, path, out);
  if (schema.number !== undefined && (types & NUMBER) !== 0) numberKeywords(schema.number, value as number, path, out);
  if (schema.object !== undefined && types === OBJECT) objectKeywords(schema.object, value as Obj, path, next, run, out);
  if (schema.array !== undefined && types === ARRAY) arrayKeywords(schema.array, value as unknown[], path, next, run, out);

  // 7.
  if (schema.combinators !== undefined) combinators(schema.combinators, value, path, next, run, out);
}

function stringKeywords(k: StringKeywords, value: string, path: string, out: ValidationError[]): void {
  if (k.format !== undefined && !k.format.isValid(value)) {
    out.push(error(path, "format", k.format.at, `expected string in format ${k.format.name}, got ${describeValue(value)}`));
  }
  if (k.minLength !== undefined || k.maxLength !== undefined) {
    // Lengths count code points, as JSON Schema says: "😀" is one character, not two.
    const length = [...value].length;
    if (k.minLength !== undefined && length < k.minLength.limit) {
      out.push(error(path, "minLength", k.minLength.at, `expected at least ${k.minLength.limit} characters, got ${describeValue(value)} (${length})`));
    }
    if (k.maxLength !== undefined && length > k.maxLength.limit) {
      out.push(error(path, "maxLength", k.maxLength.at, `expected at most ${k.maxLength.limit} characters, got ${describeValue(value)} (${length})`));
    }
  }
  if (k.pattern !== undefined && !k.pattern.regex.test(value)) {
    out.push(error(path, "pattern", k.pattern.at, `expected a string matching /${k.pattern.source}/, got ${describeValue(value)}`));
  }
}

function numberKeywords(keywords: NumberKeyword[], value: number, path: string, out: ValidationError[]): void {
  for (const { keyword, limit, fails, expected, at } of keywords) {
    if (fails(value, limit)) out.push(error(path, keyword, at, `expected ${expected} ${limit}, got ${describeValue(value)}`));
  }
}

/** Own members only: {} has no "constructor" member, whatever its prototype says; and a member
 * set to `undefined` is absent, as in JSON. */
function objectKeywords(k: ObjectKeywords, value: Obj, path: string, next: number, run: Run, out: ValidationError[]): void {
  if (k.required !== undefined) {
    for (const name of k.required.names) {
      if (value[name] === undefined || !Object.hasOwn(value, name)) {
        out.push(error(childPointer(path, name), "required", k.required.at, `expected required property \`${name}\`, got nothing`));
      }
    }
  }
  for (const { name, segment, schema } of k.properties) {
    const member = value[name];
    if (member !== undefined && Object.hasOwn(value, name)) apply(schema, member, path + segment, next, run, out);
  }
  if (k.additional !== undefined) {
    const { listed, schema, at } = k.additional;
    for (const name of Object.keys(value)) {
      if (listed.has(name) || value[name] === undefined) continue;
      const where = childPointer(path, name);
      // `additionalProperties: false` itself reports `additionalProperties`; a false schema
      // reached through a $ref below it is a false schema.
      if (schema !== true && "falseAt" in schema) {
        out.push(error(where, "additionalProperties", at, `expected no property \`${name}\` (not allowed), got ${describeValue(value[name])}`));
      } else {
        apply(schema, value[name], where, next, run, out);
      }
    }
  }
}

function arrayKeywords(k: ArrayKeywords, value: unknown[], path: string, next: number, run: Run, out: ValidationError[]): void {
  if (k.minItems !== undefined && value.length < k.minItems.limit) {
    out.push(error(path, "minItems", k.minItems.at, `expected at least ${k.minItems.limit} items, got ${value.length}`));
  }
  if (k.maxItems !== undefined && value.length > k.maxItems.limit) {
    out.push(error(path, "maxItems", k.maxItems.at, `expected at most ${k.maxItems.limit} items, got ${value.length}`));
  }
  if (k.uniqueItems !== undefined) {
    const dup = firstDuplicate(value);
    if (dup) out.push(error(path, "uniqueItems", k.uniqueItems.at, `expected unique items, got items ${dup[0]} and ${dup[1]} equal to ${describeValue(value[dup[1]])}`));
  }
  if (k.items !== undefined) {
    for (let i = 0; i < value.length; i++) apply(k.items, value[i], `${path}/${i}`, next, run, out);
  }
}

/** allOf is plain conjunction: its branches' own errors. anyOf, oneOf and not only know
 * "matched or not", so they report one error of their own. */
function combinators(k: Combinators, value: unknown, path: string, next: number, run: Run, out: ValidationError[]): void {
  if (k.allOf !== undefined) {
    for (const branch of k.allOf) apply(branch, value, path, next, run, out);
  }
  // Every branch of anyOf and oneOf is evaluated, even after one has matched: how deep a
  // validation goes (MAX_EVAL_DEPTH) must not depend on the order branches are tried in.
  if (k.anyOf !== undefined) {
    const { branches, at } = k.anyOf;
    if (countMatches(branches, value, path, next, run) === 0) {
      out.push(error(path, "anyOf", at, `expected a value matching at least one of the ${branches.length} anyOf schemas, got ${describeValue(value)}`));
    }
  }
  if (k.oneOf !== undefined) {
    const { branches, at } = k.oneOf;
    const matched = countMatches(branches, value, path, next, run);
    if (matched !== 1) {
      out.push(error(path, "oneOf", at, `expected a value matching exactly one of the ${branches.length} oneOf schemas (${matched} matched), got ${describeValue(value)}`));
    }
  }
  if (k.not !== undefined && matches(k.not.branch, value, path, next, run)) {
    out.push(error(path, "not", k.not.at, `expected a value that does not match the "not" schema, got ${describeValue(value)}`));
  }
}

function countMatches(branches: Sub[], value: unknown, path: string, level: number, run: Run): number {
  let matched = 0;
  for (const branch of branches) if (matches(branch, value, path, level, run)) matched++;
  return matched;
}

/** Whether `value` matches `branch` (an anyOf, oneOf or not subschema) applied at `level`: its
 * errors are not reported, and nothing is coerced inside it. A boolean schema applies nothing. */
function matches(branch: Sub, value: unknown, path: string, level: number, run: Run): boolean {
  if (branch === true) return true;
  if ("falseAt" in branch) return false;
  const errors: ValidationError[] = [];
  if (run.coerce) {
    const coercing = run.coercing;
    run.coercing = false;
    apply(branch, value, path, level, run, errors);
    run.coercing = coercing;
    return errors.length === 0;
  }
  run.verdicts ??= new Map();
  let byPath = run.verdicts.get(branch);
  if (!byPath) run.verdicts.set(branch, (byPath = new Map()));
  const known = byPath.get(path);
  if (known !== undefined) {
    // Reused: the limit applies as if the branch were evaluated again at this level.
    const reached = level + known.height;
    if (reached > MAX_EVAL_DEPTH) throw TOO_DEEP;
    if (reached > run.deepest) run.deepest = reached;
    return known.matched;
  }
  const outer = run.deepest;
  run.deepest = level;
  apply(branch, value, path, level, run, errors);
  const matched = errors.length === 0;
  byPath.set(path, { matched, height: run.deepest - level });
  if (outer > run.deepest) run.deepest = outer;
  return matched;
}

/** A numeric string, where the schema wants a number (or an integer) and not a string, becomes
 * that number; anything else is left as it is. */
function coerce(value: unknown, to: "number" | "integer", path: string, run: Run): unknown {
  if (typeof value !== "string") return value;
  const n = Number(value);
  // Round trip: "42", "-1.5", "1e+21" qualify; "042", " 42", "1.0", "0x10", "", "Infinity" don't.
  if (!Number.isFinite(n) || String(n) !== value) return value;
  if (to === "integer" && !Number.isInteger(n)) return value;
  run.coercions ??= new Map();
  run.coercions.set(path, { path, from: value, to: n });
  return n;
}

// --- helpers -------------------------------------------------------------------------------

function isOneOf(value: unknown, allowed: unknown[]): boolean {
  for (const candidate of allowed) if (jsonEqual(candidate, value)) return true;
  return false;
}

/** The first pair of equal items, as indices (i < j). Pairwise: arrays in tool calls are short. */
function firstDuplicate(items: unknown[]): [number, number] | undefined {
  for (let j = 1; j < items.length; j++) {
    for (let i = 0; i < j; i++) if (jsonEqual(items[i], items[j])) return [i, j];
  }
  return undefined;
}

function error(path: string, keyword: string, schemaPath: string, message: string): ValidationError {
  return { path, keyword, message, schemaPath };
}

// --- the coerced copy ----------------------------------------------------------------------

/**
 * A deep copy of `instance` with each coercion written in. Keys are copied with
 * Object.defineProperty: a plain `copy[key] = v` with key "__proto__" would set the copy's
 * prototype instead of copying the property.
 */
function applyCoercions(instance: unknown, coercions: Coercion[]): unknown {
  if (coercions.length === 0) return deepCopy(instance);
  const byPath = new Map(coercions.map((c) => [c.path, c.to]));
  return deepCopy(instance, "", byPath);
}

function deepCopy(value: unknown, path = "", replace?: Map<string, number>): unknown {
  if (replace?.has(path)) return replace.get(path);
  if (Array.isArray(value)) return value.map((item, i) => deepCopy(item, childPointer(path, i), replace));
  if (isPlainObject(value)) {
    const copy: Obj = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: deepCopy(item, childPointer(path, key), replace), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
  return value;
}

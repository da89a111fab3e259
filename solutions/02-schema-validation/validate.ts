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
// What is left to do on each call, kept short:
// - reading the arguments' members: one pass over the object's own keys, matched to the schema's
//   names through a layout worked out once per order of keys (`objectKeywords`), instead of a
//   lookup and an own-property check per name;
// - the depth limit: measured while validating, on the arrays and objects validation enters; a
//   separate walk only when it left some unentered (`validate`, `enter`);
// - instance paths: joined only when an error, a coercion or a nested value needs one (`pathOf`);
// - a parameter whose schema has nothing but `type` is settled at once (`passesOnlyType`), and an
//   object made only of such parameters, with the keys of the last one seen, in one pass over its
//   keys (`passesPlain`).
//
// `apply` is the only interpreter: each keyword has one compiled field and one check in it. Why
// a tree of objects and not of closures, and why every compiled schema is of one class: see
// docs/benchmarks.md, "Why the references are written this way".
//
// A schema is data that must not change after its first use.
import { describeValue } from "./feedback.ts";
import { FORMATS, type FormatName } from "./formats.ts";
import { jsonEqual } from "./json-equal.ts";
import { childPointer, escapeSegment } from "./pointer.ts";
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
  const coerce = options?.coerce === true;
  try {
    let errors: ValidationError[] = [];
    const run = new Run(coerce);
    apply(root, instance, "", "", 1, run, errors);
    // The depth limit (task 7): the arrays and objects validation entered were measured as it
    // went (see `enter`); if it left some unentered, the whole instance is measured now, before
    // the result is used. Either way, a value too deep is the one depth error, as if it had been
    // measured first: the errors found meanwhile are dropped.
    // (Only an array or an object leaves something unentered, so the instance is one.)
    if (run.unentered && nestingDepthExceeds(instance as object, MAX_DEPTH)) throw TOO_DEEP_VALUE;
    if (!coerce) return { valid: errors.length === 0, errors, value: instance, coercions: [] };
    const coercions = run.coercions === undefined ? [] : [...run.coercions.values()];
    const value = applyCoercions(instance, coercions);
    if (coercions.length > 0) {
      // The errors are those of the value handed back: every keyword sees the coerced numbers,
      // wherever the coercion was decided (an allOf sibling's `maximum` included).
      errors = [];
      apply(root, value, "", "", 1, new Run(false), errors);
    }
    return { valid: errors.length === 0, errors, value, coercions };
  } catch (e) {
    if (e === TOO_DEEP_VALUE) return depthError(`expected at most ${MAX_DEPTH} levels of nested arrays and objects, got a deeper value`, instance);
    if (e === TOO_DEEP_EVAL) return depthError(`expected a value that validates within ${MAX_EVAL_DEPTH} nested schemas, got one that needs more`, instance);
    throw e;
  }
}

/** Schemas applied inside one another, at most (5 x MAX_DEPTH): a recursive `$ref` schema times
 * a deep instance could otherwise nest far deeper than either, and overflow the stack. */
const MAX_EVAL_DEPTH = 5 * MAX_DEPTH;
/** Thrown from deep inside a validation that goes past MAX_EVAL_DEPTH, or that meets an instance
 * nested deeper than MAX_DEPTH; caught by `validate`. */
const TOO_DEEP_EVAL = Symbol("too deep to evaluate");
const TOO_DEEP_VALUE = Symbol("nested too deep");

/** The one error of a value too deep to validate; nothing is coerced, nothing copied. */
function depthError(message: string, instance: unknown): ValidationResult {
  return { valid: false, errors: [{ path: "", keyword: "depth", message, schemaPath: "" }], value: instance, coercions: [] };
}

/**
 * Measured without recursion (an explicit stack), so that a 10,000-deep array is a clear error
 * instead of a stack overflow. Used on what validation did not enter (see `validate`) and on a
 * value about to be rendered or compared whole (`measured`): always an array or an object. It
 * makes no array of children (no Object.values) and stacks only containers.
 */
function nestingDepthExceeds(instance: object, max: number): boolean {
  let value = instance;
  let depth = 1;
  // Containers still to look into, each followed by its depth. Created on the first nested one:
  // most tool arguments are one flat object.
  let stack: unknown[] | undefined;
  for (;;) {
    if (depth > max) return true;
    if (Array.isArray(value)) {
      for (const child of value) if (typeof child === "object" && child !== null) (stack ??= []).push(child, depth + 1);
    } else {
      for (const key in value) {
        const child = (value as Obj)[key];
        if (typeof child === "object" && child !== null && hasOwn.call(value, key)) (stack ??= []).push(child, depth + 1);
      }
    }
    if (stack === undefined || stack.length === 0) return false;
    depth = stack.pop() as number;
    value = stack.pop() as object;
  }
}

// --- compiled schemas ----------------------------------------------------------------------

/**
 * A schema, compiled: each keyword's value as `apply` needs it (with the schema path and the
 * fixed part of the message of its error), `undefined` where the schema lacks the keyword.
 * Grouped as the README orders the evaluation: the keywords for strings, numbers, objects and
 * arrays are only looked at for a value of that type. Subschemas are compiled too. Boolean
 * schemas are compiled schemas as well (`always`): every schema `apply` meets is one of these.
 */
class Compiled {
  /** When `type` is the schema's only keyword (or it has none): the types it accepts, as
   * `accepts`; 0 when it has others. See `passesOnlyType`. */
  onlyTypes = 0;
  /** 2. `type`: the types it accepts, as a mask of type bits (see `typesOf`; every type when the
   * schema has no `type`). */
  accepts = ANY_TYPE;
  /** `true` or `false` for a boolean schema (a `false` schema's error points at `schemaPath`). */
  always: boolean | undefined = undefined;
  /** 1. `$ref`: the compiled definition (filled in once compiled: a recursive schema refers to itself). */
  ref: { target: Compiled } | undefined = undefined;
  /** 2. `type`, continued: the coercion it allows, and what its error says. */
  coerce: "number" | "integer" | undefined = undefined;
  type: { at: string; expected: string } | undefined = undefined;
  /** The allowed values (the error's schema path and message are made when it is reported). */
  enum: readonly unknown[] | undefined = undefined;
  const: { value: unknown; at: string; expected: string } | undefined = undefined;
  /** 3 to 6. */
  string: StringKeywords | undefined = undefined;
  number: NumberKeyword[] | undefined = undefined;
  object: ObjectKeywords | undefined = undefined;
  array: ArrayKeywords | undefined = undefined;
  /** 7. */
  combinators: Combinators | undefined = undefined;
  schemaPath = "";
}

function booleanSchema(always: boolean, schemaPath: string): Compiled {
  const compiled = new Compiled();
  compiled.always = always;
  compiled.schemaPath = schemaPath;
  return compiled;
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

/** The object keywords, kept flat: arrays of names, segments and schemas, one entry per
 * property, rather than an object per property. */
interface ObjectKeywords {
  /** `required`, in order (empty without the keyword), and its length. */
  required: readonly string[];
  requiredCount: number;
  requiredAt: string;
  /** `properties`, in the order the schema lists them: each name, as a pointer segment too
   * ("/a~1b"), its compiled schema and that schema's `onlyTypes`. */
  names: readonly string[];
  segments: readonly string[];
  schemas: readonly Compiled[];
  onlyTypes: readonly number[];
  listed: Set<string>;
  /** The subschema for the other members, `false` included (it reports `additionalProperties`). */
  additional: { schema: Compiled; at: string } | undefined;
  /** The layout of the last object seen (see `Layout`). */
  layout: Layout | undefined;
}

interface ArrayKeywords {
  minItems: { limit: number; at: string } | undefined;
  maxItems: { limit: number; at: string } | undefined;
  uniqueItems: { at: string } | undefined;
  items: Compiled | undefined;
}

interface Combinators {
  allOf: Compiled[] | undefined;
  anyOf: { branches: Compiled[]; at: string } | undefined;
  oneOf: { branches: Compiled[]; at: string } | undefined;
  not: { branch: Compiled; at: string } | undefined;
}

/** Compiled root schemas. Boolean schemas cannot be WeakMap keys and need no compiling. */
const compiledSchemas = new WeakMap<object, Compiled>();

/** The compiled form of a root schema, checked (a SchemaError) and compiled on its first use. */
function compiled(schema: Schema): Compiled {
  if (typeof schema === "boolean") return booleanSchema(schema, "");
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
  private readonly targets = new Map<string, { target: Compiled }>();
  private readonly pending: Array<{ ref: { target: Compiled }; schema: Schema; schemaPath: string }> = [];

  constructor(private readonly root: Schema) {}

  compileRoot(): Compiled {
    const root = this.target(this.root, "");
    while (this.pending.length > 0) {
      const { ref, schema, schemaPath } = this.pending.pop()!;
      ref.target = this.schema(schema, schemaPath);
    }
    return root.target;
  }

  private target(schema: Schema, schemaPath: string): { target: Compiled } {
    let ref = this.targets.get(schemaPath);
    if (!ref) {
      ref = { target: booleanSchema(true, schemaPath) }; // a placeholder until compiled
      this.targets.set(schemaPath, ref);
      this.pending.push({ ref, schema, schemaPath });
    }
    return ref;
  }

  /** A schema at `schemaPath`: each keyword it has, read once. */
  schema(schema: Schema, schemaPath: string): Compiled {
    if (typeof schema === "boolean") return booleanSchema(schema, schemaPath);
    const s = schema as Obj;
    const has = (keyword: string) => Object.hasOwn(s, keyword);
    const at = (keyword: string) => childPointer(schemaPath, keyword);
    const format = has("format") ? (s.format as FormatName) : undefined;
    const listed = has("properties") ? Object.keys(s.properties as Obj) : [];
    const c = new Compiled();
    c.schemaPath = schemaPath;
    if (has("$ref")) c.ref = this.ref(s.$ref as string, at("$ref"));
    if (has("type")) typeKeyword(c, s.type as string | string[], format, at("type"));
    if (has("enum")) c.enum = s.enum as unknown[];
    if (has("const")) c.const = { value: s.const, at: at("const"), expected: `expected ${describeValue(s.const)}` };
    if (["format", "minLength", "maxLength", "pattern"].some(has)) {
      c.string = {
        format: format === undefined ? undefined : { isValid: FORMATS[format], name: format, at: at("format") },
        minLength: has("minLength") ? { limit: s.minLength as number, at: at("minLength") } : undefined,
        maxLength: has("maxLength") ? { limit: s.maxLength as number, at: at("maxLength") } : undefined,
        // (checkSchema compiled it already, so it is safe and valid: the schema is compiled once.)
        pattern: has("pattern") ? { regex: new RegExp(s.pattern as string, "u"), source: s.pattern as string, at: at("pattern") } : undefined,
      };
    }
    if (NUMBER_KEYWORDS.some(([keyword]) => has(keyword))) {
      c.number = NUMBER_KEYWORDS.filter(([keyword]) => has(keyword)).map(([keyword, fails, expected]) => ({ keyword, limit: s[keyword] as number, fails, expected, at: at(keyword) }));
    }
    if (["required", "properties", "additionalProperties"].some(has)) {
      const required = has("required") ? (s.required as string[]) : NONE;
      const schemas = listed.map((name) => this.schema((s.properties as Record<string, Schema>)[name], childPointer(at("properties"), name)));
      // (In the order validating an object reads them.)
      c.object = {
        layout: undefined,
        requiredCount: required.length,
        onlyTypes: schemas.map((sub) => sub.onlyTypes),
        schemas,
        segments: listed.map((name) => `/${escapeSegment(name)}`),
        additional: has("additionalProperties")
          ? { schema: this.schema(s.additionalProperties as Schema, at("additionalProperties")), at: at("additionalProperties") }
          : undefined,
        required,
        requiredAt: at("required"),
        names: listed,
        listed: new Set(listed),
      };
    }
    if (["minItems", "maxItems", "uniqueItems", "items"].some(has)) {
      c.array = {
        minItems: has("minItems") ? { limit: s.minItems as number, at: at("minItems") } : undefined,
        maxItems: has("maxItems") ? { limit: s.maxItems as number, at: at("maxItems") } : undefined,
        uniqueItems: s.uniqueItems === true ? { at: at("uniqueItems") } : undefined,
        items: has("items") ? this.schema(s.items as Schema, at("items")) : undefined,
      };
    }
    if (["allOf", "anyOf", "oneOf", "not"].some(has)) {
      c.combinators = {
        allOf: has("allOf") ? this.list(s.allOf as Schema[], at("allOf")) : undefined,
        anyOf: has("anyOf") ? { branches: this.list(s.anyOf as Schema[], at("anyOf")), at: at("anyOf") } : undefined,
        oneOf: has("oneOf") ? { branches: this.list(s.oneOf as Schema[], at("oneOf")), at: at("oneOf") } : undefined,
        not: has("not") ? { branch: this.schema(s.not as Schema, at("not")), at: at("not") } : undefined,
      };
    }
    const onlyType =
      c.ref === undefined && c.enum === undefined && c.const === undefined && c.string === undefined && c.number === undefined &&
      c.object === undefined && c.array === undefined && c.combinators === undefined;
    c.onlyTypes = onlyType ? c.accepts : 0;
    return c;
  }

  /** A `$ref` (checked already: it resolves). */
  private ref(ref: string, at: string): { target: Compiled } {
    const { schema, schemaPath } = resolveRef(this.root, ref, at);
    return this.target(schema, schemaPath);
  }

  private list(schemas: Schema[], at: string): Compiled[] {
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
const SCALAR = ANY_TYPE & ~(ARRAY | OBJECT);

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
function typeKeyword(c: Compiled, type: string | string[], format: string | undefined, at: string): void {
  const names = Array.isArray(type) ? type : [type];
  c.accepts = names.reduce((mask, name) => mask | TYPE_BITS[name], 0);
  // A string is coerced only where `type` does not allow strings but allows numbers (or integers).
  c.coerce = names.includes("string") ? undefined : names.includes("number") ? "number" : names.includes("integer") ? "integer" : undefined;
  // The message names the format of the same schema too: "expected string in format date".
  c.type = { at, expected: `expected ${names.join(" or ")}${format === undefined ? "" : ` in format ${format}`}` };
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

  /** How many arrays and objects validation is inside of (see `enter`). */
  depth = 0;
  /** Whether validation left an array or object unentered (see `validate`). */
  unentered = false;

  constructor(readonly coerce: boolean) {
    this.coercing = coerce;
  }
}

/**
 * Appends the errors of `value` against `schema`, a schema applied at `level` (the root is 1; a
 * schema applied by a keyword of a schema at level k, a `$ref` target included, is at k + 1), in
 * the README's order of evaluation. The value's instance path is `pathOf(parent, segment)`,
 * joined only when needed (see `pathOf`).
 */
function apply(schema: Compiled, value: unknown, parent: string, segment: Segment, level: number, run: Run, out: ValidationError[]): void {
  if (!passesOnlyType(schema.onlyTypes, value, level, run)) applyKeywords(schema, value, parent, segment, level, run, out);
}

/**
 * The short cut for most tool parameters: a schema with nothing but `type` (`onlyTypes`, its
 * accepted types; 0 for any other schema), given a scalar of one of those types, has nothing to
 * report, coerce or measure: only its level counts. Its callers ask it first, and need neither
 * `applyKeywords` nor, in `objectKeywords`, the compiled subschema itself when it says yes.
 */
function passesOnlyType(onlyTypes: number, value: unknown, level: number, run: Run): boolean {
  if ((typesOf(value) & onlyTypes & SCALAR) === 0 || level > MAX_EVAL_DEPTH) return false;
  if (level > run.deepest) run.deepest = level;
  return true;
}

/** `apply` without its short cut: every keyword of `schema`, in the README's order. */
function applyKeywords(schema: Compiled, value: unknown, parent: string, segment: Segment, level: number, run: Run, out: ValidationError[]): void {
  if (schema.always !== undefined) {
    if (!schema.always) out.push(error(pathOf(parent, segment), "false", schema.schemaPath, `expected nothing here (the schema is false), got ${got(value)}`));
    if (typeof value === "object" && value !== null) run.unentered = true;
    return;
  }
  // Boolean schemas apply nothing further, so only object schemas count against the limit.
  if (level > MAX_EVAL_DEPTH) throw TOO_DEEP_EVAL;
  if (level > run.deepest) run.deepest = level;
  const next = level + 1;

  // 1. $ref: the definition applies to the same value, one level deeper.
  if (schema.ref !== undefined) apply(schema.ref.target, value, parent, segment, next, run, out);

  // 2. type, enum, const. Coercion comes first: every later keyword sees the number.
  if (schema.coerce !== undefined && run.coercing) value = coerce(value, schema.coerce, pathOf(parent, segment), run);
  const types = typesOf(value);
  // (NaN and the infinities have no type: they fail every `type`, and pass a schema without one.)
  if ((types & schema.accepts) === 0 && schema.type !== undefined) {
    out.push(error(pathOf(parent, segment), "type", schema.type.at, `${schema.type.expected}, got ${got(value)}`));
  }
  if (schema.enum !== undefined && !isOneOf(measured(value), schema.enum)) {
    out.push(error(pathOf(parent, segment), "enum", childPointer(schema.schemaPath, "enum"), `expected one of ${describeValue(schema.enum)}, got ${got(value)}`));
  }
  if (schema.const !== undefined && !jsonEqual(schema.const.value, measured(value))) {
    out.push(error(pathOf(parent, segment), "const", schema.const.at, `${schema.const.expected}, got ${got(value)}`));
  }

  // 3 to 6: the keywords of the value's own type. NaN and the infinities are not JSON numbers:
  // no type, so no number keyword looks at them.
  if (schema.string !== undefined && types === STRING) stringKeywords(schema.string, value as string, parent, segment, out);
  if (schema.number !== undefined && (types & NUMBER) !== 0) numberKeywords(schema.number, value as number, parent, segment, out);
  // An object or array the schema has no keywords for is not entered: measured afterwards.
  if (types === OBJECT) {
    if (schema.object !== undefined) objectKeywords(schema.object, value as Obj, pathOf(parent, segment), next, run, out);
    else run.unentered = true;
  } else if (types === ARRAY) {
    if (schema.array !== undefined) arrayKeywords(schema.array, value as unknown[], pathOf(parent, segment), next, run, out);
    else run.unentered = true;
  }

  // 7.
  if (schema.combinators !== undefined) combinators(schema.combinators, value, parent, segment, next, run, out);
}

/** The last segment of an instance path: a member's name as a pointer segment with its slash
 * ("/a~1b", escaped already), an item's index, or "" for the root. */
type Segment = string | number;

/**
 * A value's instance path, from its parent's path and its segment. It is joined only where it is
 * needed (an error, a coercion, an object or array whose members get paths of their own): most
 * values are checked without ever needing theirs.
 */
function pathOf(parent: string, segment: Segment): string {
  return typeof segment === "number" ? `${parent}/${segment}` : parent + segment;
}

function stringKeywords(k: StringKeywords, value: string, parent: string, segment: Segment, out: ValidationError[]): void {
  if (k.format !== undefined && !k.format.isValid(value)) {
    out.push(error(pathOf(parent, segment), "format", k.format.at, `expected string in format ${k.format.name}, got ${got(value)}`));
  }
  if (k.minLength !== undefined || k.maxLength !== undefined) {
    // Lengths count code points, as JSON Schema says: "😀" is one character, not two.
    const length = [...value].length;
    if (k.minLength !== undefined && length < k.minLength.limit) {
      out.push(error(pathOf(parent, segment), "minLength", k.minLength.at, `expected at least ${k.minLength.limit} characters, got ${got(value)} (${length})`));
    }
    if (k.maxLength !== undefined && length > k.maxLength.limit) {
      out.push(error(pathOf(parent, segment), "maxLength", k.maxLength.at, `expected at most ${k.maxLength.limit} characters, got ${got(value)} (${length})`));
    }
  }
  if (k.pattern !== undefined && !k.pattern.regex.test(value)) {
    out.push(error(pathOf(parent, segment), "pattern", k.pattern.at, `expected a string matching /${k.pattern.source}/, got ${got(value)}`));
  }
}

function numberKeywords(keywords: NumberKeyword[], value: number, parent: string, segment: Segment, out: ValidationError[]): void {
  for (const { keyword, limit, fails, expected, at } of keywords) {
    if (fails(value, limit)) out.push(error(pathOf(parent, segment), keyword, at, `expected ${expected} ${limit}, got ${got(value)}`));
  }
}

/**
 * Own members only: {} has no "constructor" member, whatever its prototype says; and a member set
 * to `undefined` is absent, as in JSON. The members are read in one pass over the object's keys,
 * then matched to the schema's names through the layout of those keys (see `Layout`).
 */
function objectKeywords(k: ObjectKeywords, value: Obj, path: string, next: number, run: Run, out: ValidationError[]): void {
  enter(run);
  let layout = k.layout;
  // Most calls of a tool pass the same plain members as the call before: see `passesPlain`.
  if (layout !== undefined && layout.plain && passesPlain(layout, value, next, run)) {
    run.depth--;
    return;
  }
  // The members, in the object's key order, while checking that its keys are the layout's.
  const members: unknown[] = new Array(layout === undefined ? 0 : layout.keys.length);
  let count = 0;
  let same = layout !== undefined;
  for (const key in value) {
    // `for...in` also lists inherited enumerable keys: only own members count (why
    // `hasOwn.call` and not `Object.hasOwn`: docs/benchmarks.md).
    if (!hasOwn.call(value, key)) continue;
    if (same && layout!.keys[count] !== key) same = false;
    members[count++] = value[key];
  }
  if (layout === undefined || !same || count !== layout.keys.length) k.layout = layout = layoutOf(k, Object.keys(value));
  const { requiredCount, onlyTypes } = k;
  const { slots } = layout;
  for (let i = 0; i < requiredCount; i++) {
    const slot = slots[i];
    if ((slot < 0 ? hiddenMember(value, k.required[i]) : members[slot]) === undefined) {
      const name = k.required[i];
      out.push(error(childPointer(path, name), "required", k.requiredAt, `expected required property \`${name}\`, got nothing`));
    }
  }
  // Each listed property (`onlyTypes` has one entry per property), in the schema's order.
  for (let i = 0; i < onlyTypes.length; i++) {
    const slot = slots[requiredCount + i];
    const member = slot < 0 ? hiddenMember(value, k.names[i]) : members[slot];
    if (member !== undefined && !passesOnlyType(onlyTypes[i], member, next, run)) {
      applyKeywords(k.schemas[i], member, path, k.segments[i], next, run, out);
    }
  }
  if (k.additional !== undefined) {
    const { schema, at } = k.additional;
    for (const slot of layout.others) {
      const member = members[slot];
      if (member === undefined) continue;
      const name = layout.keys[slot];
      // `additionalProperties: false` itself reports `additionalProperties`; a false schema
      // reached through a $ref below it is a false schema.
      if (schema.always === false) {
        out.push(error(childPointer(path, name), "additionalProperties", at, `expected no property \`${name}\` (not allowed), got ${got(member)}`));
      } else {
        apply(schema, member, path, `/${escapeSegment(name)}`, next, run, out);
      }
    }
  } else {
    for (const slot of layout.others) if (typeof members[slot] === "object" && members[slot] !== null) run.unentered = true;
  }
  run.depth--;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The short cut for objects. A layout is plain when every key is a listed property whose schema
 * has nothing but `type` and every required name is a key. An object with the layout's keys, in
 * its order, whose members all pass their types (`passesOnlyType`), meets its object keywords:
 * nothing to report (required and properties are met, no member is unlisted), nothing to enter.
 * One pass over the keys and no array of members; on anything else (another key, a member that
 * fails) `objectKeywords` starts again the general way.
 */
function passesPlain(layout: Layout, value: Obj, level: number, run: Run): boolean {
  let count = 0;
  for (const key in value) {
    if (!hasOwn.call(value, key)) continue;
    if (layout.keys[count] !== key || !passesOnlyType(layout.types[count], value[key], level, run)) return false;
    count++;
  }
  if (count !== layout.keys.length) return false;
  // A listed name that is not a key may still be an own property that is not enumerable.
  for (const name of layout.absent) if (hasOwn.call(value, name)) return false;
  return true;
}

/** A name the object's enumerable keys do not have may still be an own property, one that is not
 * enumerable (JSON makes none, but a program can): it counts as a member. */
function hiddenMember(value: Obj, name: string): unknown {
  return hasOwn.call(value, name) ? value[name] : undefined;
}

/**
 * Where the members the object keywords look at sit among an object's own keys (an index into
 * them, -1 when absent). Worked out once per order of keys and kept with the compiled schema:
 * the calls of one tool mostly pass the same members in the same order.
 */
interface Layout {
  keys: readonly string[];
  /** For each name of `required`, in order, then for each listed property, in the schema's order. */
  slots: readonly number[];
  /** The members `properties` does not list, in the object's order (for additionalProperties). */
  others: readonly number[];
  /** For `passesPlain`: whether the layout is plain, each key's `onlyTypes` (0 if not listed),
   * and the listed names that are not keys. */
  plain: boolean;
  types: readonly number[];
  absent: readonly string[];
}

function layoutOf(k: ObjectKeywords, keys: readonly string[]): Layout {
  const slots = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) slots.set(keys[i], i);
  const slot = (name: string) => slots.get(name) ?? -1;
  const others: number[] = [];
  for (let i = 0; i < keys.length; i++) if (!k.listed.has(keys[i])) others.push(i);
  const listedAt = new Map(k.names.map((name, i) => [name, i]));
  const types = keys.map((key) => {
    const i = listedAt.get(key);
    return i === undefined ? 0 : k.onlyTypes[i];
  });
  return {
    keys,
    slots: [...k.required.map(slot), ...k.names.map(slot)],
    others: others.length === 0 ? NONE : others,
    plain: types.every((t) => t !== 0) && k.required.every((name) => slots.has(name)),
    types,
    absent: k.names.filter((name) => !slots.has(name)),
  };
}

/** The one empty array of every absent list. */
const NONE: readonly never[] = [];

function arrayKeywords(k: ArrayKeywords, value: unknown[], path: string, next: number, run: Run, out: ValidationError[]): void {
  enter(run);
  if (k.minItems !== undefined && value.length < k.minItems.limit) {
    out.push(error(path, "minItems", k.minItems.at, `expected at least ${k.minItems.limit} items, got ${value.length}`));
  }
  if (k.maxItems !== undefined && value.length > k.maxItems.limit) {
    out.push(error(path, "maxItems", k.maxItems.at, `expected at most ${k.maxItems.limit} items, got ${value.length}`));
  }
  if (k.uniqueItems !== undefined) {
    const dup = firstDuplicate(measured(value));
    if (dup) out.push(error(path, "uniqueItems", k.uniqueItems.at, `expected unique items, got items ${dup[0]} and ${dup[1]} equal to ${got(value[dup[1]])}`));
  }
  if (k.items !== undefined) {
    for (let i = 0; i < value.length; i++) apply(k.items, value[i], path, i, next, run, out);
  } else {
    run.unentered = true;
  }
  run.depth--;
}

/** An object or array entered by validation, one level below the one that holds it: its depth
 * is measured here (with `run.depth--` when it is left). */
function enter(run: Run): void {
  if (++run.depth > MAX_DEPTH) throw TOO_DEEP_VALUE;
}

/** allOf is plain conjunction: its branches' own errors. anyOf, oneOf and not only know
 * "matched or not", so they report one error of their own. */
function combinators(k: Combinators, value: unknown, parent: string, segment: Segment, next: number, run: Run, out: ValidationError[]): void {
  if (k.allOf !== undefined) {
    for (const branch of k.allOf) apply(branch, value, parent, segment, next, run, out);
  }
  if (k.anyOf === undefined && k.oneOf === undefined && k.not === undefined) return;
  const path = pathOf(parent, segment);
  // Every branch of anyOf and oneOf is evaluated, even after one has matched: how deep a
  // validation goes (MAX_EVAL_DEPTH) must not depend on the order branches are tried in.
  if (k.anyOf !== undefined) {
    const { branches, at } = k.anyOf;
    if (countMatches(branches, value, path, next, run) === 0) {
      out.push(error(path, "anyOf", at, `expected a value matching at least one of the ${branches.length} anyOf schemas, got ${got(value)}`));
    }
  }
  if (k.oneOf !== undefined) {
    const { branches, at } = k.oneOf;
    const matched = countMatches(branches, value, path, next, run);
    if (matched !== 1) {
      out.push(error(path, "oneOf", at, `expected a value matching exactly one of the ${branches.length} oneOf schemas (${matched} matched), got ${got(value)}`));
    }
  }
  if (k.not !== undefined && matches(k.not.branch, value, path, next, run)) {
    out.push(error(path, "not", k.not.at, `expected a value that does not match the "not" schema, got ${got(value)}`));
  }
}

function countMatches(branches: Compiled[], value: unknown, path: string, level: number, run: Run): number {
  let matched = 0;
  for (const branch of branches) if (matches(branch, value, path, level, run)) matched++;
  return matched;
}

/** Whether `value` (at instance `path`) matches `branch` (an anyOf, oneOf or not subschema)
 * applied at `level`: its errors are not reported, and nothing is coerced inside it. A boolean
 * schema applies nothing. */
function matches(branch: Compiled, value: unknown, path: string, level: number, run: Run): boolean {
  if (branch.always !== undefined) return branch.always;
  const errors: ValidationError[] = [];
  if (run.coerce) {
    const coercing = run.coercing;
    run.coercing = false;
    apply(branch, value, path, "", level, run, errors);
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
    if (reached > MAX_EVAL_DEPTH) throw TOO_DEEP_EVAL;
    if (reached > run.deepest) run.deepest = reached;
    return known.matched;
  }
  const outer = run.deepest;
  run.deepest = level;
  apply(branch, value, path, "", level, run, errors);
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

function isOneOf(value: unknown, allowed: readonly unknown[]): boolean {
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

/**
 * A value of the instance as a message shows it. Validation may not have measured the value yet
 * (see `validate`): JSON.stringify, like jsonEqual, recurses, so a value is measured before either
 * looks at it whole, and one nested too deep is the depth error, not a stack overflow.
 */
function got(value: unknown): string {
  return describeValue(measured(value));
}

function measured<T>(value: T): T {
  if (typeof value === "object" && value !== null && nestingDepthExceeds(value, MAX_DEPTH)) throw TOO_DEEP_VALUE;
  return value;
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

// The validator: walks the instance along the schema and collects every error, in a fixed order.
import { describeValue } from "./feedback.ts";
import { FORMATS, type FormatName } from "./formats.ts";
import { jsonEqual } from "./json-equal.ts";
import { childPointer } from "./pointer.ts";
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
export function validate(schema: Schema, instance: unknown, options: ValidateOptions = {}): ValidationResult {
  checkSchema(schema);
  if (nestingDepthExceeds(instance, MAX_DEPTH)) {
    return depthError(`expected at most ${MAX_DEPTH} levels of nested arrays and objects, got a deeper value`, instance);
  }
  try {
    const run = new Run(schema, options.coerce === true);
    let errors: ValidationError[] = [];
    run.evaluate(schema, instance, "", "", 1, true, errors);
    const coercions = [...run.coercions.values()];
    if (options.coerce !== true) return { valid: errors.length === 0, errors, value: instance, coercions };
    const value = applyCoercions(instance, coercions);
    if (coercions.length > 0) {
      // The errors are those of the value handed back: every keyword sees the coerced numbers,
      // wherever the coercion was decided (an allOf sibling's `maximum` included).
      errors = [];
      new Run(schema, false).evaluate(schema, value, "", "", 1, true, errors);
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
 * instead of a stack overflow, here and in every recursive step after this check.
 */
function nestingDepthExceeds(instance: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[instance, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * One validation: the root (for $ref), the coercions made so far, how deep it has gone.
 *
 * Every method appends the errors it finds to `out`, in evaluation order, instead of returning
 * arrays to be concatenated: a valid instance (the common case) builds no error arrays at all.
 * (A runtime validates every call of every tool: see docs/benchmarks.md for what this costs.)
 */
class Run {
  readonly coercions = new Map<string, Coercion>();
  /** Verdicts of anyOf/oneOf/not branches, so that nested branches over recursive $refs do not
   * re-evaluate the same (schema, location) exponentially often. Only used without coercion.
   * Each verdict keeps how many levels deep its evaluation went, so that reusing it at a deeper
   * level still meets MAX_EVAL_DEPTH exactly where evaluating it again would. Created on first
   * use: most tool schemas have no anyOf, oneOf or not. */
  private verdicts: WeakMap<object, Map<string, { matched: boolean; height: number }>> | undefined;
  /** The deepest level reached so far (see `matches`). */
  private deepest = 0;

  constructor(
    private readonly root: Schema,
    private readonly coerce: boolean,
  ) {}

  /**
   * Appends the errors of `value` (at instance `path`) against `schema` (at `schemaPath`), a
   * schema applied at `level` (the root is 1; a schema applied by a keyword of a schema at level
   * k, a `$ref` target included, is at k + 1). `canCoerce` is false inside anyOf/oneOf/not, whose
   * branches only answer "does it match".
   */
  evaluate(schema: Schema, value: unknown, path: string, schemaPath: string, level: number, canCoerce: boolean, out: ValidationError[]): void {
    if (schema === true) return;
    if (schema === false) {
      out.push(error(path, "false", schemaPath, `expected nothing here (the schema is false), got ${describeValue(value)}`));
      return;
    }
    // Boolean schemas apply nothing further, so only object schemas count against the limit.
    if (level > MAX_EVAL_DEPTH) throw TOO_DEEP;
    if (level > this.deepest) this.deepest = level;
    const s = schema as Obj;
    const next = level + 1;

    if (Object.hasOwn(s, "$ref")) {
      // The schema check refused every $ref loop that stays at one instance location.
      const target = resolveRef(this.root, s.$ref as string, childPointer(schemaPath, "$ref"));
      this.evaluate(target.schema, value, path, target.schemaPath, next, canCoerce, out);
    }

    if (Object.hasOwn(s, "type")) {
      const types = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
      if (!hasAnyType(value, types) && canCoerce && this.coerce) value = this.tryCoerce(value, types, path);
      if (!hasAnyType(value, types)) {
        const format = Object.hasOwn(s, "format") ? ` in format ${s.format}` : "";
        out.push(error(path, "type", childPointer(schemaPath, "type"), `expected ${types.join(" or ")}${format}, got ${describeValue(value)}`));
      }
    }
    if (Object.hasOwn(s, "enum") && !(s.enum as unknown[]).some((e) => jsonEqual(e, value))) {
      out.push(error(path, "enum", childPointer(schemaPath, "enum"), `expected one of ${describeValue(s.enum)}, got ${describeValue(value)}`));
    }
    if (Object.hasOwn(s, "const") && !jsonEqual(s.const, value)) {
      out.push(error(path, "const", childPointer(schemaPath, "const"), `expected ${describeValue(s.const)}, got ${describeValue(value)}`));
    }
    if (typeof value === "string") stringKeywords(s, value, path, schemaPath, out);
    // NaN and the infinities are not JSON numbers: no type, so no number keyword looks at them.
    if (typeof value === "number" && Number.isFinite(value)) numberKeywords(s, value, path, schemaPath, out);
    if (isPlainObject(value)) this.objectKeywords(s, value, path, schemaPath, next, canCoerce, out);
    if (Array.isArray(value)) this.arrayKeywords(s, value, path, schemaPath, next, canCoerce, out);
    this.combinators(s, value, path, schemaPath, next, canCoerce, out);
  }

  /** A numeric string, where the schema wants a number and not a string, becomes that number. */
  private tryCoerce(value: unknown, types: string[], path: string): unknown {
    if (typeof value !== "string") return value;
    const n = Number(value);
    // Round trip: "42", "-1.5", "1e+21" qualify; "042", " 42", "1.0", "0x10", "", "Infinity" don't.
    if (!Number.isFinite(n) || String(n) !== value) return value;
    if (!types.includes("number") && !(types.includes("integer") && Number.isInteger(n))) return value;
    this.coercions.set(path, { path, from: value, to: n });
    return n;
  }

  private objectKeywords(s: Obj, value: Obj, path: string, schemaPath: string, next: number, canCoerce: boolean, out: ValidationError[]): void {
    // Own properties only: {} has no "constructor" property, whatever its prototype says.
    if (Object.hasOwn(s, "required")) {
      for (const name of s.required as string[]) {
        if (!has(value, name)) {
          out.push(error(childPointer(path, name), "required", childPointer(schemaPath, "required"), `expected required property \`${name}\`, got nothing`));
        }
      }
    }
    const properties = (Object.hasOwn(s, "properties") ? s.properties : {}) as Obj;
    const propertiesAt = childPointer(schemaPath, "properties");
    for (const name of Object.keys(properties)) {
      if (has(value, name)) {
        this.evaluate(properties[name] as Schema, value[name], childPointer(path, name), childPointer(propertiesAt, name), next, canCoerce, out);
      }
    }
    if (Object.hasOwn(s, "additionalProperties")) {
      const extra = s.additionalProperties as Schema;
      const at = childPointer(schemaPath, "additionalProperties");
      for (const name of Object.keys(value)) {
        if (Object.hasOwn(properties, name) || !has(value, name)) continue;
        const where = childPointer(path, name);
        if (extra === false) {
          out.push(error(where, "additionalProperties", at, `expected no property \`${name}\` (not allowed), got ${describeValue(value[name])}`));
        } else {
          this.evaluate(extra, value[name], where, at, next, canCoerce, out);
        }
      }
    }
  }

  private arrayKeywords(s: Obj, value: unknown[], path: string, schemaPath: string, next: number, canCoerce: boolean, out: ValidationError[]): void {
    if (Object.hasOwn(s, "minItems") && value.length < (s.minItems as number)) {
      out.push(error(path, "minItems", childPointer(schemaPath, "minItems"), `expected at least ${s.minItems} items, got ${value.length}`));
    }
    if (Object.hasOwn(s, "maxItems") && value.length > (s.maxItems as number)) {
      out.push(error(path, "maxItems", childPointer(schemaPath, "maxItems"), `expected at most ${s.maxItems} items, got ${value.length}`));
    }
    if (s.uniqueItems === true) {
      const dup = firstDuplicate(value);
      if (dup) out.push(error(path, "uniqueItems", childPointer(schemaPath, "uniqueItems"), `expected unique items, got items ${dup[0]} and ${dup[1]} equal to ${describeValue(value[dup[1]])}`));
    }
    if (Object.hasOwn(s, "items")) {
      const at = childPointer(schemaPath, "items");
      for (let i = 0; i < value.length; i++) this.evaluate(s.items as Schema, value[i], childPointer(path, i), at, next, canCoerce, out);
    }
  }

  /** allOf is plain conjunction: its branches' own errors. anyOf, oneOf and not only know
   * "matched or not", so they report one error of their own. */
  private combinators(s: Obj, value: unknown, path: string, schemaPath: string, next: number, canCoerce: boolean, out: ValidationError[]): void {
    if (Object.hasOwn(s, "allOf")) {
      const at = childPointer(schemaPath, "allOf");
      (s.allOf as Schema[]).forEach((sub, i) => this.evaluate(sub, value, path, childPointer(at, i), next, canCoerce, out));
    }
    // Every branch of anyOf and oneOf is evaluated, even after one has matched: how deep a
    // validation goes (MAX_EVAL_DEPTH) must not depend on the order branches are tried in.
    if (Object.hasOwn(s, "anyOf")) {
      const branches = s.anyOf as Schema[];
      const at = childPointer(schemaPath, "anyOf");
      if (branches.filter((sub, i) => this.matches(sub, value, path, childPointer(at, i), next)).length === 0) {
        out.push(error(path, "anyOf", at, `expected a value matching at least one of the ${branches.length} anyOf schemas, got ${describeValue(value)}`));
      }
    }
    if (Object.hasOwn(s, "oneOf")) {
      const branches = s.oneOf as Schema[];
      const at = childPointer(schemaPath, "oneOf");
      const matched = branches.filter((sub, i) => this.matches(sub, value, path, childPointer(at, i), next)).length;
      if (matched !== 1) {
        out.push(error(path, "oneOf", at, `expected a value matching exactly one of the ${branches.length} oneOf schemas (${matched} matched), got ${describeValue(value)}`));
      }
    }
    if (Object.hasOwn(s, "not") && this.matches(s.not as Schema, value, path, childPointer(schemaPath, "not"), next)) {
      out.push(error(path, "not", childPointer(schemaPath, "not"), `expected a value that does not match the "not" schema, got ${describeValue(value)}`));
    }
  }

  private matches(schema: Schema, value: unknown, path: string, schemaPath: string, level: number): boolean {
    if (typeof schema === "boolean") return schema;
    const check = () => {
      const errors: ValidationError[] = [];
      this.evaluate(schema, value, path, schemaPath, level, false, errors);
      return errors.length === 0;
    };
    if (this.coerce) return check();
    this.verdicts ??= new WeakMap();
    let byPath = this.verdicts.get(schema);
    if (!byPath) this.verdicts.set(schema, (byPath = new Map()));
    const known = byPath.get(path);
    if (known !== undefined) {
      // Reused: the limit applies as if the branch were evaluated again at this level.
      const reached = level + known.height;
      if (reached > MAX_EVAL_DEPTH) throw TOO_DEEP;
      if (reached > this.deepest) this.deepest = reached;
      return known.matched;
    }
    const outer = this.deepest;
    this.deepest = level;
    const matched = check();
    byPath.set(path, { matched, height: this.deepest - level });
    if (outer > this.deepest) this.deepest = outer;
    return matched;
  }
}

function stringKeywords(s: Obj, value: string, path: string, schemaPath: string, out: ValidationError[]): void {
  if (Object.hasOwn(s, "format") && !FORMATS[s.format as FormatName](value)) {
    out.push(error(path, "format", childPointer(schemaPath, "format"), `expected string in format ${s.format}, got ${describeValue(value)}`));
  }
  if (Object.hasOwn(s, "minLength") || Object.hasOwn(s, "maxLength")) {
    // Lengths count code points, as JSON Schema says: "😀" is one character, not two.
    const length = [...value].length;
    if (Object.hasOwn(s, "minLength") && length < (s.minLength as number)) {
      out.push(error(path, "minLength", childPointer(schemaPath, "minLength"), `expected at least ${s.minLength} characters, got ${describeValue(value)} (${length})`));
    }
    if (Object.hasOwn(s, "maxLength") && length > (s.maxLength as number)) {
      out.push(error(path, "maxLength", childPointer(schemaPath, "maxLength"), `expected at most ${s.maxLength} characters, got ${describeValue(value)} (${length})`));
    }
  }
  if (Object.hasOwn(s, "pattern") && !compilePattern(s.pattern as string, childPointer(schemaPath, "pattern")).test(value)) {
    out.push(error(path, "pattern", childPointer(schemaPath, "pattern"), `expected a string matching /${s.pattern}/, got ${describeValue(value)}`));
  }
}

/** The numeric keywords: which values fail against the keyword's limit, and how to say it. */
const NUMBER_KEYWORDS: Array<[keyword: string, fails: (value: number, limit: number) => boolean, expected: string]> = [
  ["minimum", (v, m) => v < m, "a number >="],
  ["maximum", (v, m) => v > m, "a number <="],
  ["exclusiveMinimum", (v, m) => v <= m, "a number >"],
  ["exclusiveMaximum", (v, m) => v >= m, "a number <"],
  ["multipleOf", (v, m) => !isMultipleOf(v, m), "a multiple of"],
];

function numberKeywords(s: Obj, value: number, path: string, schemaPath: string, out: ValidationError[]): void {
  for (const [keyword, fails, expected] of NUMBER_KEYWORDS) {
    if (Object.hasOwn(s, keyword) && fails(value, s[keyword] as number)) {
      out.push(error(path, keyword, childPointer(schemaPath, keyword), `expected ${expected} ${s[keyword]}, got ${describeValue(value)}`));
    }
  }
}

/**
 * Float-safe: 0.3 is a multiple of 0.1 although 0.3 / 0.1 === 2.9999999999999996 in binary
 * floating point. The quotient must be finite and within 1e-9 of an integer.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  const q = value / divisor;
  return Number.isFinite(q) && Math.abs(q - Math.round(q)) < 1e-9;
}

function hasAnyType(value: unknown, types: string[]): boolean {
  for (const type of types) if (hasType(value, type)) return true;
  return false;
}

/** An own property with a value: a member set to `undefined` is absent, as in JSON. */
function has(o: Obj, name: string): boolean {
  return Object.hasOwn(o, name) && o[name] !== undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      // JSON has one number type: 1.0 is the integer 1.
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return false;
  }
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

// Generators for kata 2: nasty prose around calls, calls in every wire shape, schemas from the
// supported subset, and data shaped by a schema (then mutated).
import fc from "fast-check";

type Obj = Record<string, unknown>;
export type JsonSchema = boolean | Obj;

// --- text and JSON pieces ------------------------------------------------------------------

/** Strings with the characters that break naive parsers: quotes, braces, escapes, tags, unicode. */
export const nastyString = fc.oneof(
  fc.string({ unit: fc.constantFrom("{", "}", "[", "]", '"', "\\", "'", ",", ":", "\n", "`", "<", ">", "/", "a", " ", "北", "😀", "（", "）", "，") }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom("</tool_call>", "<tool_call>", "```", '{"name": "x"}', "}}]]", "\\u0000", "a\\nb"),
);

/** JSON values whose strings are nasty. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    nastyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(nastyString, tie("value"), { maxKeys: 3 }),
  ),
})).value;

/** A tool-call arguments object: nasty keys and values, nested objects and arrays. */
export const argumentsObject = fc.dictionary(fc.oneof(nastyString, fc.constantFrom("__proto__", "constructor", "name", "arguments")), nastyJson, {
  maxKeys: 4,
});

/** Tool names as models and BFCL write them: snake_case, dotted namespaces. */
export const toolName = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), fc.option(fc.stringMatching(/^[a-z][a-z_]{0,7}$/), { nil: undefined }))
  .map(([name, ns]) => (ns ? `${ns}.${name}` : name));

/**
 * Prose with no call in it, and no bracket left open: words, full-width punctuation, quoted
 * words, balanced {word} and [word], stray closers, fences without JSON, newlines.
 */
export const callFreeProse = fc
  .array(
    fc.oneof(
      fc.stringMatching(/^[A-Za-z]{1,8}$/),
      fc.constantFrom(" ", "\n", ", ", ". ", "（注意）", "“引号”", "：", "'", '"quoted"', "(approx.)", "{word}", "[note]", "}", "]", "```", "{}", "[1, 2]", '{"temp": 21}', "<b>"),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

/** Trailing prose may also open brackets that never close (a reply cut off mid-thought). */
export const trailingProse = fc.tuple(callFreeProse, fc.constantFrom("", "{", "[", '{"', "{ see", "[[")).map(([p, t]) => p + t);

export interface GeneratedCall {
  name: string;
  arguments: Obj;
}

export const generatedCall: fc.Arbitrary<GeneratedCall> = fc.record({ name: toolName, arguments: argumentsObject });

/** The ways a call travels inside text. */
export type TextShape = "tag" | "bare" | "fence" | "string-args" | "double-encoded" | "parameters";
export const textShape = fc.constantFrom<TextShape>("tag", "bare", "fence", "string-args", "double-encoded", "parameters");

/** A call rendered as text in one of the shapes. */
export function renderInText(call: GeneratedCall, shape: TextShape): string {
  const args = call.arguments;
  switch (shape) {
    case "tag":
      return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: args })}\n</tool_call>`;
    case "bare":
      return JSON.stringify({ name: call.name, arguments: args });
    case "fence":
      return "\n```json\n" + JSON.stringify({ name: call.name, arguments: args }, null, 2) + "\n```\n";
    case "string-args":
      return JSON.stringify({ name: call.name, arguments: JSON.stringify(args) });
    case "double-encoded":
      return JSON.stringify({ name: call.name, arguments: JSON.stringify(JSON.stringify(args)) });
    case "parameters":
      return JSON.stringify({ name: call.name, parameters: args });
  }
}

/** The structured shapes: an OpenAI message, an Anthropic message. */
export type MessageShape = "openai" | "anthropic";
export function renderMessage(calls: GeneratedCall[], ids: Array<string | undefined>, shape: MessageShape): unknown {
  if (shape === "openai") {
    return {
      role: "assistant",
      content: null,
      tool_calls: calls.map((c, i) => ({
        ...(ids[i] === undefined ? {} : { id: ids[i] }),
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      })),
    };
  }
  return {
    role: "assistant",
    content: [
      { type: "text", text: "Working on it." },
      ...calls.map((c, i) => ({ type: "tool_use", ...(ids[i] === undefined ? {} : { id: ids[i] }), name: c.name, input: c.arguments })),
    ],
  };
}

// --- schemas from the supported subset -----------------------------------------------------

/** Property names, including the ones JSON Pointers must escape. */
export const PROPERTY_NAMES = ["a", "b", "c", "x/y", "m~n", "d e"];
const SAFE_PATTERNS = ["^a", "b$", "^[a-c]*$", "\\d", "^.{0,3}$", "é", "^\\p{L}+$"];

const smallNumber = fc.integer({ min: -8, max: 40 }).map((n) => n / 4); // exact in binary
const smallJson = fc.oneof(fc.constantFrom(null, true, false, 0, 1, 2.5, "", "a", "ab", "é😀"), fc.constant([1, "a"]), fc.constant({ a: 1 }));

const typeName = fc.constantFrom("string", "number", "integer", "boolean", "null", "object", "array");
const typeKeyword = fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }));

const stringSchema = fc.record(
  { type: fc.constant("string"), minLength: fc.nat(3), maxLength: fc.integer({ min: 1, max: 6 }), pattern: fc.constantFrom(...SAFE_PATTERNS) },
  { requiredKeys: ["type"] },
);
const numberSchema = fc.record(
  {
    type: fc.constantFrom("number", "integer"),
    minimum: smallNumber,
    maximum: smallNumber,
    exclusiveMinimum: smallNumber,
    exclusiveMaximum: smallNumber,
    multipleOf: fc.constantFrom(1, 2, 3, 0.5, 0.25),
  },
  { requiredKeys: ["type"] },
);
const leafSchema: fc.Arbitrary<JsonSchema> = fc.oneof(
  fc.record({ type: typeKeyword }),
  stringSchema,
  numberSchema,
  fc.record({ enum: fc.array(smallJson, { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: smallJson }),
  fc.boolean(),
  fc.constant({}),
  fc.constantFrom({ $ref: "#/$defs/d" }, { $ref: "#/$defs/tree" }),
);

/** A schema from the subset (no `format`: Ajv's formats are not the kata's), bounded depth. */
export const supportedSchema: fc.Arbitrary<JsonSchema> = fc
  .tuple(
    fc.letrec<{ node: JsonSchema }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", maxDepth: 3, withCrossShrink: true },
        leafSchema,
        fc.record(
          {
            type: fc.constant("object"),
            properties: fc.dictionary(fc.constantFrom(...PROPERTY_NAMES), tie("node"), { maxKeys: 3 }),
            required: fc.uniqueArray(fc.constantFrom(...PROPERTY_NAMES), { maxLength: 2 }),
            additionalProperties: fc.oneof(fc.constant(false), tie("node")),
          },
          { requiredKeys: ["type"] },
        ),
        fc.record(
          { type: fc.constant("array"), items: tie("node"), minItems: fc.nat(2), maxItems: fc.integer({ min: 1, max: 4 }), uniqueItems: fc.boolean() },
          { requiredKeys: ["type"] },
        ),
        fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
        fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
        fc.record({ allOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
        fc.record({ not: tie("node") }),
      ),
    })).node,
    // $defs/d has no $ref of its own, so that no $ref loops; $defs/tree recurses through items.
    fc.oneof(stringSchema, numberSchema, fc.record({ type: typeKeyword })),
  )
  .map(([node, d]) => {
    const defs = { d, tree: { type: ["array", "integer"], items: { $ref: "#/$defs/tree" }, maximum: 5 } };
    return typeof node === "boolean" ? { allOf: [node], $defs: defs } : { ...node, $defs: defs };
  });

// --- data shaped by a schema, then mutated -------------------------------------------------

function resolve(root: Obj, ref: string): JsonSchema {
  return (root.$defs as Record<string, JsonSchema>)[ref.slice("#/$defs/".length)];
}

/** Data that follows the schema's shape (often valid; anyOf, not, pattern... make no promise). */
export function dataFor(schema: JsonSchema, root: Obj, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema === "boolean" || depth > 4) return smallJson;
  if (typeof schema.$ref === "string") return dataFor(resolve(root, schema.$ref), root, depth + 1);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    return fc.oneof(...((schema.anyOf ?? schema.oneOf) as JsonSchema[]).map((s) => dataFor(s, root, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) return dataFor((schema.allOf as JsonSchema[])[0], root, depth + 1);
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length === 0) return smallJson;
  return fc.constantFrom(...types).chain((t) => dataOfType(t, schema, root, depth));
}

function dataOfType(type: string, schema: Obj, root: Obj, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return fc.string({ unit: fc.constantFrom("a", "b", "c", "1", "é", "😀"), minLength: (schema.minLength as number) ?? 0, maxLength: 6 });
    case "number":
    case "integer": {
      const min = Math.ceil(((schema.minimum as number) ?? -10) * 4);
      const max = Math.max(min, Math.floor(((schema.maximum as number) ?? 10) * 4));
      const n = fc.integer({ min, max }).map((q) => q / 4);
      return type === "integer" ? n.map(Math.round) : n;
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(dataFor((schema.items as JsonSchema) ?? true, root, depth + 1), {
        minLength: (schema.minItems as number) ?? 0,
        maxLength: Math.max((schema.minItems as number) ?? 0, 3),
      });
    default: {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const names = [...new Set([...Object.keys(properties), ...((schema.required as string[]) ?? [])])];
      const entries = names.map((name) => fc.tuple(fc.constant(name), dataFor(properties[name] ?? true, root, depth + 1), fc.boolean()));
      return fc.tuple(...entries).map((list) => {
        const out: Obj = {};
        for (const [name, value, keep] of list) {
          if (keep || ((schema.required as string[]) ?? []).includes(name)) out[name] = value;
        }
        return out;
      });
    }
  }
}

export interface Mutation {
  kind: "none" | "replace" | "delete" | "add";
  at: number;
  value: unknown;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom<Mutation["kind"]>("none", "replace", "delete", "add"),
  at: fc.nat(),
  value: smallJson,
});

/** Applies one mutation to a copy of `data`, at the `at`-th location (modulo their number). */
export function mutate(data: unknown, m: Mutation): unknown {
  if (m.kind === "none") return data;
  const copy = structuredClone(data);
  const containers: Array<Obj | unknown[]> = [];
  const collect = (v: unknown) => {
    if (typeof v === "object" && v !== null) {
      containers.push(v as Obj);
      Object.values(v).forEach(collect);
    }
  };
  collect(copy);
  if (containers.length === 0) return m.kind === "replace" ? m.value : copy;
  const target = containers[m.at % containers.length];
  const keys = Object.keys(target);
  if (m.kind === "add") {
    if (Array.isArray(target)) target.push(m.value);
    else target[PROPERTY_NAMES[m.at % PROPERTY_NAMES.length] + "_extra"] = m.value;
  } else if (keys.length > 0) {
    const key = keys[m.at % keys.length];
    if (m.kind === "replace") (target as Obj)[key] = m.value;
    else if (Array.isArray(target)) target.splice(Number(key), 1);
    else delete target[key];
  }
  return copy;
}

/** True when `pointer` names an existing location of `data` (own properties only). */
export function pointerExists(data: unknown, pointer: string): boolean {
  if (pointer === "") return true;
  let here: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof here !== "object" || here === null || !Object.hasOwn(here, key)) return false;
    here = (here as Obj)[key];
  }
  return true;
}

/** The parent pointer of a pointer ("" for a top-level one). */
export function parentPointer(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf("/"));
}

// Turns a model's reply, whatever shape the provider gave it, into a flat list of tool calls.
import { findJsonValues, matchingBracket, type JsonSpan } from "./json-scan.ts";
import type { ArgumentsError, ExtractError, ExtractResult, ToolCall } from "./types.ts";

type Json = Record<string, unknown>;

/** A call found but not yet given its final id. */
interface Found {
  id: string | undefined;
  name: string;
  arguments: Record<string, unknown>;
  argumentsError?: ArgumentsError;
}

interface Context {
  found: Found[];
  errors: ExtractError[];
  known: ReadonlySet<string> | undefined;
}

/**
 * Extracts every tool call from `message`: a string (the reply's text), an object (an OpenAI
 * message or tool-call entry, an Anthropic message or `tool_use` block, a bare `{name, arguments}`)
 * or an array of such objects. `knownToolNames`, when given, decides whether bare JSON is a call.
 */
export function extractToolCalls(message: unknown, knownToolNames?: readonly string[]): ExtractResult {
  const ctx: Context = { found: [], errors: [], known: knownToolNames ? new Set(knownToolNames) : undefined };
  if (typeof message === "string") fromText(message, ctx);
  else if (Array.isArray(message)) fromArray(message, ctx);
  else if (isObject(message)) fromObject(message, ctx, false);
  return { calls: assignIds(ctx.found), errors: ctx.errors };
}

// --- where calls can be --------------------------------------------------------------------

/**
 * Free text: `<tool_call>` tags and the JSON values of the prose around them, in text order.
 * A tag written inside a JSON string ("the text is <tool_call>") is part of that value, not a tag;
 * and a `</tool_call>` inside the tag's own JSON does not end the tag.
 */
function fromText(text: string, ctx: Context): void {
  const spans = findJsonValues(text);
  let next = 0; // the first span not yet used or skipped
  const proseUntil = (end: number) => {
    for (; next < spans.length && spans[next].start < end; next++) fromJsonValue(spans[next].value, ctx);
  };
  const skipUntil = (end: number) => {
    while (next < spans.length && spans[next].start < end) next++;
  };
  let from = 0;
  for (;;) {
    const open = nextTag(text, from, spans);
    if (open < 0) break;
    proseUntil(open);
    const contentStart = open + OPEN_TAG.length;
    // The content's JSON value ends where its brackets balance; the closing tag comes after.
    let first = contentStart;
    while (first < text.length && /\s/.test(text[first])) first++;
    const valueEnd = text[first] === "{" || text[first] === "[" ? matchingBracket(text, first) : -1;
    const close = text.indexOf(CLOSE_TAG, valueEnd < 0 ? contentStart : valueEnd);
    if (close < 0) {
      // Cut off mid-call: what follows is not trusted as a call.
      ctx.errors.push({ code: "unclosed_tag", message: "a <tool_call> tag is never closed" });
      return;
    }
    fromTag(text.slice(contentStart, close), ctx);
    from = close + CLOSE_TAG.length;
    skipUntil(from);
  }
  proseUntil(text.length);
}

const OPEN_TAG = "<tool_call>";
const CLOSE_TAG = "</tool_call>";

/** The next `<tool_call>` at or after `from` that is not inside a JSON value of the prose. */
function nextTag(text: string, from: number, spans: JsonSpan[]): number {
  for (let at = text.indexOf(OPEN_TAG, from); at >= 0; at = text.indexOf(OPEN_TAG, at + 1)) {
    const inside = spans.find((s) => s.start < at && at < s.end);
    if (!inside) return at;
    at = inside.end - 1;
  }
  return -1;
}

/** A JSON value found in prose: an object, or an array of objects. */
function fromJsonValue(value: unknown, ctx: Context): void {
  if (Array.isArray(value)) fromArray(value, ctx);
  else if (isObject(value)) fromObject(value, ctx, false);
}

/** A tag says "this is a call", so its content is explicit. */
function fromTag(content: string, ctx: Context): void {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    // A code fence inside the tag: take the first JSON value in it.
    const spans = findJsonValues(content);
    if (spans.length === 0) {
      ctx.errors.push({ code: "invalid_json", message: "the content of a <tool_call> tag is not JSON" });
      return;
    }
    value = spans[0].value;
  }
  if (isObject(value)) fromObject(value, ctx, true);
  else ctx.errors.push({ code: "missing_name", message: "a <tool_call> tag holds no call object" });
}

/** The elements of an array that are objects; nested arrays are data, not calls. */
function fromArray(items: unknown[], ctx: Context): void {
  for (const item of items) if (isObject(item)) fromObject(item, ctx, false);
}

/**
 * One object. `explicit` is true when the context already says it is a call (a tag), so that
 * neither the known-names rule nor the need for an `arguments` key applies.
 */
function fromObject(o: Json, ctx: Context, explicit: boolean): void {
  const toolCalls = own(o, "tool_calls");
  if (Array.isArray(toolCalls) && toolCalls.length > 0) {
    // An OpenAI assistant message: every entry is a call. Entries are not searched any deeper,
    // so a hostile, deeply nested message can't drive this code into deep recursion.
    for (const entry of toolCalls) {
      if (isObject(entry)) fromCallObject(entry, ctx);
      else missingName(ctx, "a tool_calls entry is not an object");
    }
    return;
  }
  if (isObject(own(o, "function")) || own(o, "type") === "tool_use") return fromCallObject(o, ctx);
  const content = own(o, "content");
  if (typeof content === "string") return fromText(content, ctx);
  if (Array.isArray(content)) return fromBlocks(content, ctx);
  if (explicit) return fromCallObject(o, ctx);
  // Bare JSON: a call only if it looks like one; otherwise it is data the model talked about.
  const name = own(o, "name");
  if (typeof name !== "string" || name === "") return;
  const isCall = ctx.known
    ? ctx.known.has(name) // with known names, the name alone decides
    : Object.hasOwn(o, "arguments") || Object.hasOwn(o, "parameters");
  if (isCall) fromCallObject(o, ctx);
}

/** An Anthropic content array: `tool_use` blocks are calls, `text` blocks are scanned. */
function fromBlocks(blocks: unknown[], ctx: Context): void {
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const type = own(block, "type");
    const text = own(block, "text");
    if (type === "tool_use") fromCallObject(block, ctx);
    else if (type === "text" && typeof text === "string") fromText(text, ctx);
  }
}

/** An object known to be one call, in one of the three shapes. */
function fromCallObject(o: Json, ctx: Context): void {
  const fn = own(o, "function");
  if (isObject(fn)) {
    // OpenAI: {id, type: "function", function: {name, arguments}}.
    addCall(ctx, own(o, "id"), own(fn, "name"), fn);
  } else if (own(o, "type") === "tool_use") {
    // Anthropic: {type: "tool_use", id, name, input}.
    addCall(ctx, own(o, "id"), own(o, "name"), { arguments: own(o, "input") });
  } else {
    // The single {name, arguments} (or {name, parameters}) object.
    addCall(ctx, own(o, "id"), own(o, "name"), o);
  }
}

// --- one call ------------------------------------------------------------------------------

function addCall(ctx: Context, id: unknown, name: unknown, holder: Json): void {
  if (typeof name !== "string" || name === "") {
    missingName(ctx, "a call without a name");
    return;
  }
  const { value, error } = decodeArguments(holder);
  ctx.found.push({
    id: typeof id === "string" && id !== "" ? id : undefined,
    name,
    arguments: value,
    ...(error ? { argumentsError: error } : {}),
  });
}

function missingName(ctx: Context, message: string): void {
  ctx.errors.push({ code: "missing_name", message });
}

/**
 * The call's arguments as an object. Models and providers send them in many shapes: a JSON
 * string (OpenAI's wire format), an object (Anthropic's `input`), a string encoded twice (a model
 * that JSON-encoded its own arguments), nothing at all.
 */
function decodeArguments(holder: Json): { value: Record<string, unknown>; error?: ArgumentsError } {
  const hasArgs = Object.hasOwn(holder, "arguments");
  const hasParams = Object.hasOwn(holder, "parameters");
  if (hasArgs && hasParams) {
    const raw = { arguments: holder.arguments, parameters: holder.parameters };
    return fail("ambiguous_arguments", "both `arguments` and `parameters` are present", raw);
  }
  const raw = hasParams ? holder.parameters : holder.arguments;
  if (raw === undefined || raw === null) return { value: {} };
  if (typeof raw === "string" && raw.trim() === "") return { value: {} };
  let value: unknown = raw;
  // At most two decodes: a string, then (double-encoded) the string it decoded to.
  for (let decodes = 0; typeof value === "string" && decodes < 2; decodes++) {
    try {
      value = JSON.parse(value);
    } catch {
      return fail("invalid_json", "the arguments are not valid JSON", raw);
    }
  }
  if (!isObject(value)) return fail("not_an_object", "the arguments are not a JSON object", raw);
  return { value };
}

function fail(code: ArgumentsError["code"], message: string, raw: unknown) {
  return { value: {}, error: { code, message, raw } };
}

/**
 * Calls keep their own ids. The others get `call_<i>`, i being their position in the result,
 * with `_2`, `_3`, ... appended if another call already uses that id: the same message always
 * gets the same ids, and no two calls share a generated one.
 */
function assignIds(found: Found[]): ToolCall[] {
  const taken = new Set(found.map((f) => f.id).filter((id): id is string => id !== undefined));
  return found.map((f, i) => {
    let id = f.id;
    if (id === undefined) {
      id = `call_${i}`;
      for (let k = 2; taken.has(id); k++) id = `call_${i}_${k}`;
      taken.add(id);
    }
    const call: ToolCall = { id, name: f.name, arguments: f.arguments };
    if (f.argumentsError) call.argumentsError = f.argumentsError;
    return call;
  });
}

// --- helpers -------------------------------------------------------------------------------

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Own properties only: a key inherited from a prototype is never part of the message. */
function own(o: Json, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

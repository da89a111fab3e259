// Rules the README settles for issue 13 ("contracts with no holes"): each test pins one sentence
// of the README that a careful reader could have read two ways before it was written down.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { extractToolCalls, formatFeedback, SchemaError, validate, type Schema } from "@impl/02-schema-validation";
import { l2, l3 } from "../support/graded.ts";
import { leakedPieces } from "../support/leaks.ts";

const names = (message: unknown, known?: string[]) => extractToolCalls(message, known).calls.map((c) => c.name);
const codes = (message: unknown) => extractToolCalls(message).errors.map((e) => e.code);

function schemaError(schema: unknown, data: unknown = 1): { code: string; schemaPath?: string } {
  try {
    validate(schema as Schema, data);
  } catch (e) {
    return e instanceof SchemaError ? { code: e.code, schemaPath: e.schemaPath } : { code: `not a SchemaError: ${(e as Error).message}` };
  }
  return { code: "no error" };
}

/** A chain of `count` definitions, each only a `$ref` to the next, ending in `last`. */
function refChain(count: number, last: Schema): Record<string, Schema> {
  const defs: Record<string, Schema> = {};
  for (let i = 0; i < count; i++) defs[`p${i}`] = { $ref: i + 1 < count ? `#/$defs/p${i + 1}` : "#/$defs/last" };
  defs.last = last;
  return defs;
}

function arraysAround(value: unknown, count: number): unknown {
  for (let i = 0; i < count; i++) value = [value];
  return value;
}

describe("1. Extract the tool calls", () => {
  l2("a <tool_call> tag holding an array, even an array of calls, is missing_name; the same array in prose gives its calls", () => {
    const array = '[{"name": "lookup", "arguments": {"q": "tides"}}, {"name": "notify", "arguments": {}}]';
    const tagged = extractToolCalls(`<tool_call>${array}</tool_call>`);
    expect(tagged.calls, "rule: a tag holds one call, an array in it gives no call").toEqual([]);
    expect(tagged.errors.map((e) => e.code), "rule: an array in a tag is missing_name").toEqual(["missing_name"]);
    const fenced = extractToolCalls(`<tool_call>\n\`\`\`json\n${array}\n\`\`\`\n</tool_call>`);
    expect([fenced.calls, fenced.errors.map((e) => e.code)], "rule: the first JSON value found in a tag, an array, is missing_name too").toEqual([[], ["missing_name"]]);
    const prose = extractToolCalls(`Running both: ${array} now.`);
    expect([prose.calls.map((c) => c.name), prose.errors], "rule: an array in prose contributes its object elements").toEqual([["lookup", "notify"], []]);
  });

  l2("a standalone OpenAI tool-call entry is an explicit call wherever it is found", () => {
    const entry = '{"type": "function", "function": {"name": "zap_cache", "arguments": "{}"}}';
    expect(names(`Sure: ${entry}`, ["other_tool"]), "rule: knownToolNames never filters an entry found in prose").toEqual(["zap_cache"]);
    expect(names([{ function: { name: "zap_cache" } }], []), "rule: an entry in an array is explicit, arguments may be absent").toEqual(["zap_cache"]);
    expect(names({ id: "e1", function: { name: "zap_cache" } }), "rule: an entry handed over needs no arguments key").toEqual(["zap_cache"]);
    const nameless = extractToolCalls('note {"type": "function", "function": {"arguments": "{}"}} end');
    expect([nameless.calls, nameless.errors.map((e) => e.code)], "rule: an entry without a name in prose is missing_name").toEqual([[], ["missing_name"]]);
  });

  l2("a tool_calls entry is read by its shape: a function object, a tool_use block, or a flat {id, name, arguments}", () => {
    const r = extractToolCalls({
      tool_calls: [
        { id: "a1", name: "flat_call", arguments: '{"x": 1}' },
        { type: "tool_use", id: "b2", name: "block_call", input: { y: 2 } },
        { id: "c3", type: "function", function: { name: "fn_call", arguments: { z: 3 } } },
      ],
    });
    expect(r.calls.map((c) => [c.id, c.name, c.arguments]), "rule: each entry read like a call object").toEqual([
      ["a1", "flat_call", { x: 1 }],
      ["b2", "block_call", { y: 2 }],
      ["c3", "fn_call", { z: 3 }],
    ]);
  });

  l2("a tag's object is read with the whole table; `input` is the arguments of a tool_use block only", () => {
    const block = extractToolCalls('<tool_call>{"type": "tool_use", "id": "tu_7", "name": "dig", "input": {"depth": 3}}</tool_call>');
    expect(block.calls.map((c) => [c.id, c.name, c.arguments]), "rule: a tool_use block in a tag uses its input").toEqual([["tu_7", "dig", { depth: 3 }]]);
    const bare = extractToolCalls('<tool_call>{"name": "dig", "input": {"depth": 3}}</tool_call>');
    expect([bare.calls.map((c) => [c.name, c.arguments]), bare.errors], "rule: a bare object's input is not its arguments").toEqual([[["dig", {}]], []]);
  });

  l2("the prose is scanned once over the whole text: a stray quote before a tag reaches past it", () => {
    const text = '[ "a <tool_call>{"name": "first", "arguments": {}}</tool_call> {"name": "second", "arguments": {}} ]';
    expect(names(text), "rule: values starting after the tag come from the same whole-text scan").toEqual(["first"]);
    expect(names('<tool_call>{"name": "first", "arguments": {}}</tool_call> {"name": "second", "arguments": {}}')).toEqual(["first", "second"]);
  });

  l2("ids: two calls carrying the same id both keep it; knownToolNames [] makes no bare JSON a call", () => {
    const r = extractToolCalls([
      { id: "dup", name: "a", arguments: {} },
      { id: "dup", name: "b", arguments: {} },
    ]);
    expect(r.calls.map((c) => c.id), "rule: an own id is kept even when repeated").toEqual(["dup", "dup"]);
    expect(names('{"name": "a", "arguments": {}}', []), "rule: knownToolNames [] means no bare call").toEqual([]);
    expect(names('<tool_call>{"name": "a"}</tool_call>', []), "rule: a tag is explicit, knownToolNames [] or not").toEqual(["a"]);
  });
});

describe("2. Decode the arguments", () => {
  l2("whitespace is JavaScript's: arguments of only NBSP, U+2028 or a BOM are {}", () => {
    for (const raw of ["\u00a0", " \u2028 ", "\ufeff", "\u3000\t"]) {
      const [call] = extractToolCalls({ name: "f", arguments: raw }).calls;
      expect([call.arguments, call.argumentsError], `rule: ${JSON.stringify(raw)} is only whitespace`).toEqual([{}, undefined]);
    }
  });

  l2("the empty rows are about the raw value: a decode giving \"\" is invalid_json, one giving null is not_an_object", () => {
    const code = (raw: unknown) => extractToolCalls({ name: "f", arguments: raw }).calls[0]?.argumentsError?.code;
    expect(code('""'), "rule: the second decode of an empty string fails").toBe("invalid_json");
    expect(code("null"), "rule: null after a decode is not an object").toBe("not_an_object");
    expect(code('"null"'), "rule: null after two decodes is not an object").toBe("not_an_object");
    expect(code(null), "rule: a raw null is {}").toBeUndefined();
  });

  l2("both keys present means own keys, whatever their values: parameters: null next to arguments is ambiguous", () => {
    const [call] = extractToolCalls({ name: "f", arguments: { a: 1 }, parameters: null }).calls;
    expect(call.argumentsError?.code, "rule: present = own key").toBe("ambiguous_arguments");
    expect(call.arguments).toEqual({});
  });

  l3.property("an argument error never quotes the model's raw text: no 4-character piece of a planted secret in any message", () => {
    // Letters and digits alternate, so no piece of the secret is an English word of a message.
    const secret = fc
      .array(fc.tuple(fc.constantFrom(..."ghkmpqrtvwxz"), fc.constantFrom(..."23456789")), { minLength: 8, maxLength: 20 })
      .map((pairs) => `sk-${pairs.map(([l, d]) => l + d).join("")}`);
    fc.assert(
      fc.property(secret, fc.nat(5), (key, shape) => {
        const broken = [
          `{"api_key": ${key}}`,
          `{"api_key": "${key}`,
          key,
          JSON.stringify(`{"token": ${key}}`),
          `{"token": "${key}", "retry": tru}`,
          `${key}"}`,
        ][shape];
        const messages: unknown[] = [
          { name: "auth", arguments: broken },
          { tool_calls: [{ id: "c", type: "function", function: { name: "auth", arguments: broken } }] },
          `<tool_call>{"name": "auth", "arguments": {"k": ${key}}}</tool_call>`,
          `<tool_call>${broken}</tool_call>`,
          `Calling {"name": "auth", "arguments": ${JSON.stringify(broken)}}`,
        ];
        const texts: string[] = [];
        let errorsSeen = 0;
        for (const message of messages) {
          const r = extractToolCalls(message);
          for (const e of r.errors) texts.push(e.message);
          for (const c of r.calls) if (c.argumentsError) texts.push(c.argumentsError.message);
          errorsSeen += r.errors.length + r.calls.filter((c) => c.argumentsError).length;
        }
        expect(errorsSeen, "every message above has a broken call or tag").toBeGreaterThanOrEqual(4);
        for (const text of texts) expect(leakedPieces(text, key), `rule: no piece of the raw text in ${JSON.stringify(text)}`).toEqual([]);
      }),
    );
  });
});

describe("3. Validate against the keyword subset", () => {
  l2("ref_cycle is found on the schema, whatever the instance and whichever anyOf branch matches first", () => {
    expect(schemaError({ anyOf: [true, { $ref: "#" }] }, "anything").code, "rule: a loop behind a branch that already matched").toBe("ref_cycle");
    const unreachable = schemaError({ $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, type: "string" }, "s");
    expect(unreachable.code, "rule: a loop no instance reaches is still a ref_cycle").toBe("ref_cycle");
    expect(["/$defs/a/$ref", "/$defs/b/allOf/0/$ref"], "rule: schemaPath points at a $ref of the loop").toContain(unreachable.schemaPath);
    expect(schemaError({ properties: { next: { $ref: "#" } }, anyOf: [{ type: "object" }, { not: { $ref: "#/$defs/t" } }], $defs: { t: { items: { $ref: "#" } } } }).code, "rule: loops through properties or items move into the instance").toBe(
      "no error",
    );
  });

  l2("SchemaError is an Error named \"SchemaError\"", () => {
    try {
      validate({ minLength: -1 }, "x");
      expect.unreachable("a SchemaError was expected");
    } catch (e) {
      expect(e, "rule: an Error").toBeInstanceOf(Error);
      expect((e as Error).name, "rule: name is SchemaError").toBe("SchemaError");
    }
  });

  l2("schema shape: required names distinct, annotation values unchecked, nested $defs checked but never referable", () => {
    expect(schemaError({ required: ["city", "date", "city"] }).code, "rule: required names must be distinct").toBe("invalid_keyword");
    expect(schemaError({ description: 5, title: [], default: { $ref: 7 }, examples: "x", $comment: null }).code, "rule: annotation values are not checked").toBe("no error");
    expect(schemaError({ properties: { a: { $defs: { x: { minimum: "1" } } } } }).code, "rule: a nested $defs is checked").toBe("invalid_keyword");
    expect(schemaError({ properties: { a: { $defs: { x: {} } } }, $ref: "#/$defs/x" }).code, "rule: only the root's $defs can be referred to").toBe("unresolved_ref");
    expect(validate({ enum: [] }, null).valid, "rule: an empty enum matches nothing").toBe(false);
  });

  l3("too_deep counts object subschemas: a boolean at level 101 is fine, an object there is not", () => {
    const nested = (depth: number, leaf: Schema): Schema => {
      let schema = leaf;
      for (let i = 0; i < depth; i++) schema = { items: schema };
      return schema;
    };
    expect(schemaError(nested(101, true), []).code, "rule: a boolean subschema is never too deep").toBe("no error");
    expect(schemaError(nested(101, false), []).code, "rule: a boolean subschema is never too deep").toBe("no error");
    expect(schemaError(nested(101, { type: "array" }), []).code, "rule: an object subschema at level 101 is too_deep").toBe("too_deep");
  });

  l2("non-JSON values: NaN and the infinities have no type and equal nothing; undefined members are absent", () => {
    expect(validate({ type: "number" }, NaN).valid, "rule: NaN is not a number").toBe(false);
    expect(validate({ type: ["integer", "number"] }, Infinity).valid, "rule: Infinity is neither integer nor number").toBe(false);
    expect(validate({ minimum: 0, maximum: 10, multipleOf: 3 }, -Infinity).valid, "rule: number keywords ignore non-finite values").toBe(true);
    expect(validate({ enum: [1, "x", null] }, NaN).valid, "rule: NaN equals nothing").toBe(false);
    expect(validate({ uniqueItems: true }, [NaN, NaN, undefined, undefined]).valid, "rule: NaN and undefined equal nothing, not even themselves").toBe(true);
    expect(validate({ type: "number" }, NaN).errors[0].message, "rule: such values are shown with String").toContain("NaN");
    const schema: Schema = { type: "object", required: ["city"], properties: { city: { type: "string" } }, additionalProperties: false };
    expect(
      validate(schema, { city: undefined, extra: undefined }).errors.map((e) => [e.path, e.keyword]),
      "rule: a member set to undefined is absent for required, properties and additionalProperties",
    ).toEqual([["/city", "required"]]);
    expect(validate({ const: { unit: "C" } }, { unit: "C", note: undefined }).valid, "rule: equality ignores undefined members").toBe(true);
    expect(validate({ items: { type: "null" } }, [null, undefined]).errors.map((e) => [e.path, e.keyword]), "rule: an undefined item has no type").toEqual([
      ["/1", "type"],
    ]);
  });

  l2("multipleOf: the quotient must be finite (a deliberate deviation: 1e308 is not a multiple of 0.5)", () => {
    expect(validate({ multipleOf: 0.5 }, 1e308).valid, "rule: an infinite quotient is not a multiple").toBe(false);
    expect(validate({ multipleOf: 0.5 }, 1e300).valid, "rule: a large finite quotient can be").toBe(true);
  });

  l2("email: `IPv6:` exactly as written, IPv4 leading zeros allowed, single-label and numeric hosts accepted", () => {
    const email = (s: string) => validate({ format: "email" }, s).valid;
    expect(email("ops@[ipv6:fe80::1]"), "rule: IPv6: is case-sensitive").toBe(false);
    expect(email("ops@[IPv6:fe80::1]")).toBe(true);
    expect(email("ops@[010.0.00.1]"), "rule: IPv4 leading zeros allowed").toBe(true);
    expect(email("ops@intranet"), "rule: a single-label host").toBe(true);
    expect(email("ops@42.17"), "rule: an all-numeric host").toBe(true);
  });
});

describe("4. Report every error, with its path", () => {
  l2("uniqueItems names the earliest item equal to one before it: [x, y, y, x] reports y at its two indexes", () => {
    const items = [10, 11, 12, 13, 14, "x-ray", "yankee", "yankee", "x-ray"];
    const [error] = validate({ uniqueItems: true }, items).errors;
    expect(error?.message, "rule: the first item found twice is the earliest second occurrence").toContain('"yankee"');
    expect(error?.message, "rule: not the pair that opens and closes the array").not.toContain('"x-ray"');
    expect(error?.message, "rule: both indexes of that item").toMatch(/\b6\b[^]*\b7\b/);
  });

  l2("messages: 60 UTF-16 code units; additionalProperties: false names the property; a false schema through $ref reports `false`", () => {
    const emoji = "😀".repeat(40); // 80 code units, 40 code points
    const message = validate({ type: "number" }, emoji).errors[0]?.message ?? "";
    expect(message, "rule: the cut counts code units").toContain(`${JSON.stringify(emoji).slice(0, 57)}...`);
    expect(message, "rule: the cut counts code units").not.toContain(JSON.stringify(emoji).slice(0, 59));
    const extra = validate({ properties: {}, additionalProperties: false }, { colour_hint: 1 }).errors;
    expect(extra.map((e) => e.keyword)).toEqual(["additionalProperties"]);
    expect(extra[0].message, "rule: the extra property's name").toContain("colour_hint");
    const viaRef = validate({ additionalProperties: { $ref: "#/$defs/never" }, $defs: { never: false } }, { k: 1 }).errors;
    expect(viaRef.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: a false schema reached through $ref is a false schema").toEqual([["/k", "false", "/$defs/never"]]);
  });
});

describe("5. Coerce, narrowly and only when asked", () => {
  l2("the errors are those of the coerced value: an allOf sibling sees the number", () => {
    const r = validate({ allOf: [{ type: "integer" }, { maximum: 3 }] }, "5", { coerce: true });
    expect(r.coercions, "rule: the integer branch coerces").toEqual([{ path: "", from: "5", to: 5 }]);
    expect(r.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: the maximum branch sees 5").toEqual([["", "maximum", "/allOf/1/maximum"]]);
    const nested = validate({ properties: { n: { maximum: 9, allOf: [{ type: "number" }] } } }, { n: "12" }, { coerce: true });
    expect(nested.errors.map((e) => [e.path, e.keyword]), "rule: the holding schema's maximum sees the number too").toEqual([["/n", "maximum"]]);
    expect(nested.value).toEqual({ n: 12 });
  });

  l2("coercion applies at the root; a path coerced twice is reported once; value is a copy even with nothing coerced", () => {
    const root = validate({ type: "integer" }, "7", { coerce: true });
    expect([root.value, root.coercions], "rule: the root is coerced too").toEqual([7, [{ path: "", from: "7", to: 7 }]]);
    const twice = validate({ properties: { q: { type: "number", allOf: [{ type: "integer" }] } } }, { q: "3" }, { coerce: true });
    expect(twice.coercions, "rule: one coercion per path").toEqual([{ path: "/q", from: "3", to: 3 }]);
    const instance = { q: 3 };
    const none = validate({ properties: { q: { type: "number" } } }, instance, { coerce: true });
    expect(none.value, "rule: with coerce, value is a copy").not.toBe(instance);
    expect(none.value).toEqual(instance);
  });

  l3("a depth error has no coercions and hands back the instance itself, with or without coerce", () => {
    const deep = arraysAround("1", 101);
    const r = validate({ type: "number" }, deep, { coerce: true });
    expect(r.errors.map((e) => e.keyword), "rule: one depth error").toEqual(["depth"]);
    expect([r.value === deep, r.coercions], "rule: value is the instance, coercions []").toEqual([true, []]);
    const tooDeepToEvaluate = { $ref: "#/$defs/p0", $defs: refChain(600, { properties: { n: { type: "integer" } } }) };
    const args = { n: "5" };
    const e = validate(tooDeepToEvaluate, args, { coerce: true });
    expect(e.errors.map((x) => x.keyword), "rule: the evaluation depth error").toEqual(["depth"]);
    expect([e.value === args, e.coercions], "rule: value is the instance, coercions []").toEqual([true, []]);
  });
});

describe("6. Feedback for the model", () => {
  l2("an empty toolName is as if none was given", () => {
    const [first] = formatFeedback([{ path: "/a", keyword: "type", message: "expected string, got 1", schemaPath: "/properties/a/type" }], "").split("\n");
    expect(first, "rule: the first line says invalid").toMatch(/invalid/i);
    expect(first, "rule: no empty tool name in backticks").not.toContain("``");
  });
});

describe("7. Safety limits", () => {
  l3("evaluation depth: a recursive $ref schema with 50 nested allOf on a 99-deep instance is one depth error, not a stack overflow", () => {
    let node: Schema = { items: { $ref: "#/$defs/node" } };
    for (let i = 0; i < 50; i++) node = { allOf: [node] };
    const schema: Schema = { $defs: { node }, $ref: "#/$defs/node" };
    const r = validate(schema, arraysAround(1, 99));
    expect(r.errors.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: more than 500 levels of applied schemas is the depth error").toEqual([["", "depth", ""]]);
    expect(r.valid).toBe(false);
    expect(validate(schema, arraysAround(1, 5)).valid, "rule: the same schema on a shallow instance is fine").toBe(true);
  });

  l3("evaluation depth: level 500 is applied, level 501 is the depth error (root 1, each subschema and $ref target one more)", () => {
    // The root (1) and 300 chained $refs (2..301) reach the definition `last` at 302; on 99 nested
    // arrays around a number, `last` and its items subschema alternate up to level 302 + 2 * 99 = 500.
    const at = (chain: number): Schema => ({ $ref: "#/$defs/p0", $defs: refChain(chain, { type: ["array", "integer"], items: { $ref: "#/$defs/last" } }) });
    expect(validate(at(300), arraysAround(1, 99)).errors, "rule: an object schema applied at level 500 is fine").toEqual([]);
    expect(validate(at(301), arraysAround(1, 99)).errors.map((e) => e.keyword), "rule: an object schema at level 501 is the depth error").toEqual(["depth"]);
    const bottom = validate(at(300), arraysAround("x", 99)).errors.map((e) => [e.path, e.keyword]);
    expect(bottom, "rule: the schema at level 500 is applied: its type error, no depth error").toEqual([["/0".repeat(99), "type"]]);
  });

  l3("evaluation depth counts every anyOf and oneOf branch, even after one has matched", () => {
    const defs = refChain(520, { type: "number" });
    expect(validate({ anyOf: [{}, { $ref: "#/$defs/p0" }], $defs: defs }, 1).errors.map((e) => e.keyword), "rule: a later anyOf branch counts").toEqual(["depth"]);
    expect(validate({ oneOf: [{ type: "string" }, { $ref: "#/$defs/p0" }], $defs: defs }, "s").errors.map((e) => e.keyword), "rule: every oneOf branch counts").toEqual([
      "depth",
    ]);
    expect(validate({ anyOf: [{}, { $ref: "#/$defs/p0" }], $defs: refChain(400, { type: "number" }) }, 1).valid, "rule: below the limit, anyOf as usual").toBe(true);
  });

  l3("evaluation depth: a branch met a second time, deeper, counts from where it is met", () => {
    // `shared` is applied at level 3 through allOf, then again near level 453 through the chain:
    // the second time its branch goes about 100 levels deeper, past 500.
    const defs: Record<string, Schema> = { ...refChain(450, { $ref: "#/$defs/shared" }), shared: { anyOf: [{ $ref: "#/$defs/q0" }] } };
    for (let i = 0; i < 100; i++) defs[`q${i}`] = { $ref: i + 1 < 100 ? `#/$defs/q${i + 1}` : "#/$defs/leaf" };
    defs.leaf = { type: "number" };
    const schema: Schema = { allOf: [{ $ref: "#/$defs/shared" }], anyOf: [{ $ref: "#/$defs/p0" }], $defs: defs };
    expect(validate(schema, 1).errors.map((e) => e.keyword), "rule: the deeper occurrence goes past level 500").toEqual(["depth"]);
    expect(validate({ ...schema, anyOf: [{ $ref: "#/$defs/p300" }] }, 1).valid, "rule: the same schema entered less deep is fine").toBe(true);
  });
});

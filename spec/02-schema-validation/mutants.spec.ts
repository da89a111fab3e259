// Rules of the README that the other specs left unpinned, found by mutation testing
// (npm run mutate; docs/mutation-report.md). Each test checks a sentence of the README, never a
// detail of the reference that the README leaves open (message wording, for example).
import fc from "fast-check";
import { describe, expect } from "vitest";
import { MAX_DEPTH, SchemaError, extractToolCalls, formatFeedback, validate, type Schema, type ValidationError } from "@impl/02-schema-validation";
import { l1, l2, l3 } from "../support/graded.ts";
import { callEach } from "../support/realm.ts";
import { dataFor, mutate, mutation, supportedSchema } from "./arbitraries.ts";

function schemaErrorCode(schema: unknown, data: unknown = {}): string {
  try {
    validate(schema as Schema, data);
  } catch (e) {
    return e instanceof SchemaError ? e.code : `not a SchemaError: ${(e as Error).message}`;
  }
  return "no error";
}

const patternVerdict = (pattern: string) => {
  const code = schemaErrorCode({ type: "string", pattern }, "x");
  return code === "no error" ? "accepted" : code;
};

const nested = (depth: number, leaf: Schema = {}): Schema => {
  let schema: Schema = leaf;
  for (let i = 0; i < depth; i++) schema = { items: schema };
  return schema;
};

describe("1. Extract the tool calls", () => {
  l2("bare JSON whose name is empty or not a string is data: no call, no error", () => {
    for (const message of [{ name: "", arguments: {} }, { name: 5, arguments: {} }, { name: "Alice", age: 30 }]) {
      expect(extractToolCalls(message)).toEqual({ calls: [], errors: [] });
    }
    expect(extractToolCalls('say {"name": "", "arguments": {}} ok')).toEqual({ calls: [], errors: [] });
  });

  l2("an explicit call with an empty name adds missing_name; a non-object entry or tag content too, without throwing", () => {
    const tagged = extractToolCalls('<tool_call>{"name": "", "arguments": {}}</tool_call>');
    expect(tagged.calls).toEqual([]);
    expect(tagged.errors.map((e) => e.code)).toEqual(["missing_name"]);
    const entries = extractToolCalls({ tool_calls: [null, { id: "a", type: "function", function: { name: "f", arguments: "{}" } }] });
    expect(entries.calls.map((c) => c.name)).toEqual(["f"]);
    expect(entries.errors.map((e) => e.code)).toEqual(["missing_name"]);
    expect(extractToolCalls("<tool_call>null</tool_call>").errors.map((e) => e.code)).toEqual(["missing_name"]);
  });

  l2("an empty tool_calls array is not an OpenAI message: the string content is scanned", () => {
    const r = extractToolCalls({ role: "assistant", tool_calls: [], content: 'ok {"name": "f", "arguments": {"a": 1}}' });
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([["f", { a: 1 }]]);
  });

  l2("Anthropic content: only text blocks with a string text are scanned; other blocks (and non-objects) are ignored", () => {
    const call = '{"name": "f", "arguments": {}}';
    const r = extractToolCalls({
      role: "assistant",
      content: [null, 7, { type: "image", text: call }, { type: "text", text: 5 }, { type: "text", text: `x ${call}` }],
    });
    expect(r.calls.map((c) => c.name)).toEqual(["f"]);
    expect(r.errors).toEqual([]);
  });

  l2("a call whose id is empty or not a string gets a generated id", () => {
    const r = extractToolCalls([
      { id: "", name: "a", arguments: {} },
      { id: 7, name: "b", arguments: {} },
    ]);
    expect(r.calls.map((c) => c.id)).toEqual(["call_0", "call_1"]);
  });

  l2("a generated id skips every suffix already taken: call_0, then call_0_2, call_0_3, ...", () => {
    const r = extractToolCalls([
      { name: "a", arguments: {} },
      { id: "call_0", name: "b", arguments: {} },
      { id: "call_0_2", name: "c", arguments: {} },
    ]);
    expect(r.calls.map((c) => c.id)).toEqual(["call_0_3", "call_0", "call_0_2"]);
  });

  l2("finding JSON in prose: a closed candidate that JSON.parse rejects is skipped and the candidates inside it are tried", () => {
    expect(extractToolCalls('{bad {"name": "f", "arguments": {}} }').calls.map((c) => c.name)).toEqual(["f"]);
    // Adjacent objects inside a rejected array: both are tried.
    const adjacent = '[{"name": "f", "arguments": {}}{"name": "g", "arguments": {}}]';
    expect(extractToolCalls(adjacent).calls.map((c) => c.name)).toEqual(["f", "g"]);
  });

  l2("finding JSON in prose: a region ends when its first bracket closes, or at a closer of the wrong kind; quotes after it are prose", () => {
    const call = '{"name": "f", "arguments": {}}';
    expect(extractToolCalls(`{"a": 1} it"s ${call}`).calls.map((c) => c.name)).toEqual(["f"]);
    expect(extractToolCalls(`[{ ] it"s ${call}`).calls.map((c) => c.name)).toEqual(["f"]);
  });

  l2("a tag right after a JSON value of the prose that mentions <tool_call> is still a tag", () => {
    const r = extractToolCalls('{"note": "<tool_call>"}<tool_call>{"name": "f"}</tool_call>');
    expect(r.calls.map((c) => c.name)).toEqual(["f"]);
    expect(r.errors).toEqual([]);
  });

  l2("a tag whose content is an array ends after the array: a </tool_call> inside its strings does not end it", () => {
    const r = extractToolCalls('<tool_call>["</tool_call>"]</tool_call> then {"name": "g", "arguments": {}}');
    expect(r.errors.map((e) => e.code)).toEqual(["missing_name"]);
    expect(r.calls.map((c) => c.name)).toEqual(["g"]);
  });
});

describe("2. Decode the arguments", () => {
  l2("ambiguous_arguments: raw holds both values; decoded calls have no argumentsError key at all", () => {
    const [call] = extractToolCalls({ name: "f", arguments: { a: 1 }, parameters: '{"b":2}' }).calls;
    expect(call.argumentsError?.code).toBe("ambiguous_arguments");
    expect(call.argumentsError?.raw).toEqual({ arguments: { a: 1 }, parameters: '{"b":2}' });
    const [ok] = extractToolCalls({ name: "f", arguments: '{"a":1}' }).calls;
    expect(Object.keys(ok).sort()).toEqual(["arguments", "id", "name"]);
  });
});

describe("3. Validate against the keyword subset", () => {
  l2("invalid_keyword for every keyword value of the wrong shape", () => {
    const wrong: Schema[] = [
      { minimum: "1" },
      { maximum: null },
      { exclusiveMinimum: "0" },
      { exclusiveMaximum: [] },
      { anyOf: [] },
      { oneOf: [] },
      { allOf: [] },
      { anyOf: "x" },
      { allOf: { type: "string" } },
      { type: [] },
      { type: ["string", "nope"] },
      { type: ["string", "string"] },
      { required: [1] },
      { enum: "a" },
      { uniqueItems: "yes" },
      { pattern: 5 },
      { multipleOf: "2" },
      { multipleOf: 0 },
      { properties: [] },
      { $defs: 5 },
      { items: [{ type: "string" }] },
      { type: "string", pattern: "a)" },
      { type: "string", pattern: "a)+" },
      { type: "string", pattern: "\\kx" },
      { type: "string", pattern: "(?<n" },
      { format: 5 },
      { format: ["email"] },
      { $ref: 1 },
      { $ref: null },
    ];
    expect(wrong.map((schema) => [JSON.stringify(schema), schemaErrorCode(schema)])).toEqual(
      wrong.map((schema) => [JSON.stringify(schema), "invalid_keyword"]),
    );
  });

  l2("$ref: the schema is checked as a whole, so a bad $ref where the instance never goes still throws", () => {
    expect(schemaErrorCode({ properties: { a: { $ref: "#/$defs/nope" } } }, {})).toBe("unresolved_ref");
    expect(schemaErrorCode({ properties: { a: { $ref: "#/definitions/a" } }, $defs: { a: {} } }, {})).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/a/b", $defs: { a: { $defs: { b: {} } } } }, 1)).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "x#/$defs/a", $defs: { a: {} } }, 1)).toBe("unsupported_ref");
    // <name> is percent-decoded: a broken escape is not a name at all (unsupported), a good one is.
    expect(schemaErrorCode({ $ref: "#/$defs/%E0%A4%A", $defs: { a: {} } }, 1)).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/a%2", $defs: { a: {} } }, 1)).toBe("unsupported_ref");
    expect(schemaErrorCode({ $ref: "#/$defs/%61", $defs: { a: { type: "number" } } }, 1)).toBe("no error");
    expect(schemaErrorCode({ $ref: "#/$defs/a", $defs: { a: { type: "number" } } }, 1)).toBe("no error");
  });

  l3("schema depth: 100 levels of subschemas below the root are fine, 101 are too_deep, through any keyword", () => {
    expect(schemaErrorCode(nested(100), [])).toBe("no error");
    expect(schemaErrorCode(nested(101), [])).toBe("too_deep");
    let viaProperties: Schema = {};
    for (let i = 0; i < 150; i++) viaProperties = { properties: { a: viaProperties } };
    expect(schemaErrorCode(viaProperties, {})).toBe("too_deep");
    let viaAnyOf: Schema = {};
    for (let i = 0; i < 150; i++) viaAnyOf = { anyOf: [viaAnyOf] };
    expect(schemaErrorCode(viaAnyOf, 1)).toBe("too_deep");
  });

  l2("JSON equality: an array never equals an object", () => {
    expect(validate({ const: [] }, {}).valid).toBe(false);
    expect(validate({ enum: [{}] }, []).valid).toBe(false);
    expect(validate({ const: {} }, {}).valid).toBe(true);
  });

  l2("email: host labels of 1 to 63 characters, no leading or trailing -, literal IPv4 (0-255) and IPv6 exactly", () => {
    const check = (email: string) => validate({ format: "email" }, email).valid;
    const label63 = "a".repeat(63);
    expect(check(`x@${label63}.com`)).toBe(true);
    expect(check(`x@${label63}b.com`)).toBe(false);
    expect(check("x@ab-c.example-host.com")).toBe(true);
    expect(check("x@a.b.co")).toBe(true);
    expect(check("x@-ab.com")).toBe(false);
    expect(check("x@ab-.com")).toBe(false);
    expect(check("x@a.b-.com")).toBe(false);
    expect(check("x@[IPv6:::1]")).toBe(true);
    expect(check("x@[IPv6:::1]x")).toBe(false);
    expect(check("x@[192.168.100.200]")).toBe(true);
    expect(check("x@[255.255.255.255]")).toBe(true);
    expect(check("x@[256.1.1.1]")).toBe(false);
    expect(check("x@[1.2.3.4]x")).toBe(false);
    expect(check("x@[1.2.3]")).toBe(false);
  });

  l2("date-time: offsets up to 23:59; a leap second is valid exactly at 23:59 UTC once the offset is taken away", () => {
    const check = (s: string) => validate({ format: "date-time" }, s).valid;
    expect(check("2024-01-01T00:00:00+23:59")).toBe(true);
    expect(check("2024-01-01T00:00:00-23:59")).toBe(true);
    expect(check("1991-01-01T00:59:60+01:00")).toBe(true);
    expect(check("1990-12-31T23:29:60-00:30")).toBe(true);
    expect(check("1990-12-31T23:59:60-00:30")).toBe(false);
  });

  l2("without coerce, value is the instance itself", () => {
    const instance = { a: 1, b: [1] };
    expect(validate({ type: "object" }, instance).value).toBe(instance);
    expect(validate({ type: "object" }, instance, { coerce: false }).value).toBe(instance);
  });
});

describe("4. Report every error, with its path", () => {
  l2("schemaPath points at the failing keyword, for every keyword", () => {
    const cases: Array<[Schema, unknown, string]> = [
      [{ enum: [1] }, 2, "/enum"],
      [{ const: 1 }, 2, "/const"],
      [{ required: ["a"] }, {}, "/required"],
      [{ minItems: 2 }, [1], "/minItems"],
      [{ maxItems: 1 }, [1, 2], "/maxItems"],
      [{ uniqueItems: true }, [1, 1], "/uniqueItems"],
      [{ items: { type: "string" } }, [1], "/items/type"],
      [{ allOf: [{}, { type: "string" }] }, 1, "/allOf/1/type"],
      [{ anyOf: [{ type: "string" }] }, 1, "/anyOf"],
      [{ oneOf: [{ type: "string" }] }, 1, "/oneOf"],
      [{ not: { type: "number" } }, 1, "/not"],
      [{ format: "date" }, "x", "/format"],
      [{ minLength: 2 }, "x", "/minLength"],
      [{ maxLength: 1 }, "xy", "/maxLength"],
      [{ pattern: "^a" }, "b", "/pattern"],
      [{ minimum: 2 }, 1, "/minimum"],
      [{ maximum: 0 }, 1, "/maximum"],
      [{ exclusiveMinimum: 1 }, 1, "/exclusiveMinimum"],
      [{ exclusiveMaximum: 1 }, 1, "/exclusiveMaximum"],
      [{ multipleOf: 2 }, 1, "/multipleOf"],
      [{ type: "object", properties: { child: { $ref: "#" } } }, { child: 5 }, "/type"],
    ];
    for (const [schema, data, schemaPath] of cases) {
      const errors = validate(schema, data).errors;
      expect([JSON.stringify(schema), errors.map((e) => e.schemaPath)]).toEqual([JSON.stringify(schema), [schemaPath]]);
    }
  });

  l2("each message holds the keyword's own values: the enum, the const and the limit", () => {
    const message = (schema: Schema, data: unknown) => validate(schema, data).errors[0]?.message ?? "";
    expect(message({ enum: ["celsius", "kelvin"] }, "x")).toContain('["celsius","kelvin"]');
    expect(message({ const: { a: 1 } }, 2)).toContain('{"a":1}');
    expect(message({ minimum: 17 }, 3)).toContain("17");
    expect(message({ exclusiveMaximum: 23 }, 30)).toContain("23");
    expect(message({ multipleOf: 7 }, 3)).toContain("7");
    expect(message({ maxLength: 2 }, "abc")).toContain("2");
  });

  l2("uniqueItems: the message names the first item found twice and the indexes of both", () => {
    const items = [...Array.from({ length: 11 }, (_, i) => i * 100), { unit: "kelvin" }, 1200, { unit: "kelvin" }, 1200];
    const errors = validate({ uniqueItems: true }, items).errors;
    expect(errors.map((e) => e.keyword)).toEqual(["uniqueItems"]);
    expect(errors[0].message).toContain('{"unit":"kelvin"}');
    expect(errors[0].message).toMatch(/\b11\b/);
    expect(errors[0].message).toMatch(/\b13\b/);
  });

  l2("the got value is JSON cut to 60 characters: 57 and ... when longer, whole when it fits", () => {
    const long = "y".repeat(100);
    const cut = validate({ type: "number" }, long).errors[0].message;
    expect(cut).toContain(JSON.stringify(long).slice(0, 57) + "...");
    expect(cut).not.toContain(JSON.stringify(long).slice(0, 58));
    const fits = "z".repeat(58); // 60 characters once quoted
    expect(validate({ type: "number" }, fits).errors[0].message).toContain(JSON.stringify(fits));
  });

  l2("a ref_cycle SchemaError points at the $ref that loops", () => {
    try {
      validate({ anyOf: [{ $ref: "#" }] }, 1);
      expect.unreachable("a ref_cycle was expected");
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaError);
      expect([(e as SchemaError).code, (e as SchemaError).schemaPath]).toEqual(["ref_cycle", "/anyOf/0/$ref"]);
    }
  });

  l2("a $ref loop through `not` is a ref_cycle too, pointing at its $ref", () => {
    const codeAndPath = (schema: unknown): [string, string] => {
      try {
        validate(schema as Schema, 1);
      } catch (e) {
        return e instanceof SchemaError ? [e.code, e.schemaPath] : [`not a SchemaError: ${(e as Error).message}`, ""];
      }
      return ["no error", ""];
    };
    expect(codeAndPath({ not: { $ref: "#" } }), "rule: a chain of $ref and not steps back to the root").toEqual(["ref_cycle", "/not/$ref"]);
    expect(codeAndPath({ $defs: { a: { not: { $ref: "#/$defs/a" } } } }), "rule: even where no instance would go").toEqual(["ref_cycle", "/$defs/a/not/$ref"]);
    expect(codeAndPath({ not: { $ref: "#/$defs/a" }, $defs: { a: { type: "string" } } }), "rule: a $ref under not that leads elsewhere is fine").toEqual(["no error", ""]);
  });
});

describe("6. Feedback for the model", () => {
  const errors = (n: number): ValidationError[] =>
    Array.from({ length: n }, (_, i) => ({ path: `/a${i}`, keyword: "type", message: `expected string, got ${i}`, schemaPath: `/properties/a${i}/type` }));

  l2("no errors: one line saying the arguments are valid", () => {
    for (const text of [formatFeedback([]), formatFeedback([], "get_weather")]) {
      expect(text).not.toContain("\n");
      expect(text).toMatch(/valid/i);
      expect(text).not.toMatch(/invalid/i);
    }
  });

  l2("the first line says the arguments are invalid, with or without a tool name; one line per error", () => {
    const text = formatFeedback(errors(2));
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/invalid/i);
    expect(lines.slice(1)).toEqual(["- argument `a0`: expected string, got 0", "- argument `a1`: expected string, got 1"]);
  });

  l2("exactly MAX_FEEDBACK_ERRORS errors: no extra line; two more: '- ... and 2 more errors'", () => {
    expect(formatFeedback(errors(10), "f").split("\n")).toHaveLength(11);
    const lines = formatFeedback(errors(12), "f").split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[11]).toBe("- ... and 2 more errors");
  });

  l2("one error more than MAX_FEEDBACK_ERRORS: '- ... and 1 more error', in the singular", () => {
    const lines = formatFeedback(errors(11), "f").split("\n");
    expect(lines).toHaveLength(12);
    expect(lines[11], "rule: '- ... and 1 more error' when it is one").toBe("- ... and 1 more error");
    expect(formatFeedback(errors(11)).split("\n")[11]).toBe("- ... and 1 more error");
  });
});

describe("4. Report every error, with its path (order)", () => {
  l2.property("the same schema and instance always give the same result, whatever that schema validated before", () => {
    // An implementation may keep things between calls (a compiled schema, say); nothing it keeps
    // may change a later result. Each instance is validated in a first pass, then again in the
    // reverse order, twice in a row.
    const schemaAndInstances = supportedSchema.chain((schema) =>
      fc.tuple(fc.constant(schema), fc.array(fc.tuple(dataFor(schema, schema as Record<string, unknown>), mutation), { minLength: 2, maxLength: 6 })),
    );
    fc.assert(
      fc.property(schemaAndInstances, ([schema, pairs]) => {
        const instances = pairs.map(([data, m]) => mutate(data, m));
        // Every validation in one callEach (realm.ts), in the order of a first pass, then the
        // reverse order, each instance twice in a row.
        const order = [...instances.keys(), ...[...instances.keys()].reverse().flatMap((i) => [i, i])];
        const results = callEach(validate, order.map((i) => [schema as Schema, instances[i]] as const)).map((r) => JSON.stringify(r));
        const first = results.slice(0, instances.length);
        for (const [k, i] of order.entries()) {
          if (k >= instances.length) expect(results[k], "rule: the same schema and instance give the same errors").toBe(first[i]);
        }
      }),
    );
  });

  l2("results do not depend on the objects the same schema validated before: other keys, another order, the same number of keys", () => {
    const schema: Schema = {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      required: ["a"],
      additionalProperties: false,
    };
    const verdict = (instance: unknown) => validate(schema, instance).errors.map((e) => [e.path, e.keyword]);
    const instances: Array<[unknown, string[][]]> = [
      [{ a: 1, b: 2 }, []],
      [{ a: 1, c: 2 }, [["/c", "additionalProperties"]]],
      [{ b: 1, a: 2 }, []],
      [{ b: 1, c: 2 }, [["/a", "required"], ["/c", "additionalProperties"]]],
      [{ a: 1, b: 2 }, []],
      [{ c: 1, b: 2 }, [["/a", "required"], ["/c", "additionalProperties"]]],
      [{ a: 1 }, []],
      [{ b: 1 }, [["/a", "required"]]],
      [{ a: 1, b: "2" }, [["/b", "type"]]],
    ];
    for (const [instance, expected] of instances) {
      expect(verdict(instance), `rule: the errors of ${JSON.stringify(instance)} are its own`).toEqual(expected);
    }
  });
});

describe("4. Report every error, with its path (schemaPath)", () => {
  const verdict = (schema: Schema, value: unknown) => validate(schema, value).errors.map((e) => [e.path, e.keyword, e.schemaPath]);

  l2("a false root schema's error points at the root: schemaPath \"\"", () => {
    expect(verdict(false, 1), "rule: for a false schema, schemaPath is the path of that schema").toEqual([["", "false", ""]]);
  });

  l2("an error inside an additionalProperties subschema has that subschema's schemaPath", () => {
    expect(verdict({ additionalProperties: { type: "string" } }, { x: 1 }), "rule: schemaPath points at the failing keyword").toEqual([
      ["/x", "type", "/additionalProperties/type"],
    ]);
  });
});

describe("7. Safety limits", () => {
  l3("the instance depth counts arrays and objects only: 100 nested arrays around a number are fine", () => {
    let value: unknown = 1;
    for (let i = 0; i < 100; i++) value = [value];
    expect(validate({}, value).errors, "rule: 100 nested arrays are 100 levels (a top-level [] is 1), not too deep").toEqual([]);
    const deeper = validate({}, [value]).errors;
    expect(deeper.map((e) => [e.path, e.keyword, e.schemaPath]), "rule: 101 levels (a top-level [] is 1) is one depth error").toEqual([["", "depth", ""]]);
    expect(typeof deeper[0]?.message, "rule: the depth error has a message").toBe("string");
  });

  l3("patterns: a pattern of exactly MAX_PATTERN_LENGTH characters is accepted, one more is refused", () => {
    expect(patternVerdict("a".repeat(1000))).toBe("accepted");
    expect(patternVerdict("a".repeat(1001))).toBe("unsafe_pattern");
  });

  l3("patterns: back-references by name, and quantifiers inside groups repeated without bound, are refused", () => {
    const refused = [
      "(?<x>a)\\k<x>",
      "(a{2})+",
      "(a{10})*",
      "(a{2,3})+",
      "(a{2,})+",
      "(ab?)+",
      "(a|b)*",
      "(?<n>a+)+",
      "(?:a+){2,}",
      "(a+?)+",
      "[a](b+)+",
      "([ab])(c+)+",
      "(?<=a)(b+)+",
      "(?<!a)(b+)+",
      "(?<n>a)(b+)+",
      "x(?:y)(a*)*",
      "(?:(a+))+",
    ];
    expect(refused.map((p) => [p, patternVerdict(p)])).toEqual(refused.map((p) => [p, "unsafe_pattern"]));
  });

  l3("patterns: escapes, character classes, group prefixes and bounded repeats are not quantifiers", () => {
    const accepted = [
      "(\\+)+",
      "(\\*\\?)+",
      "([+*?])+",
      "([\\]+])+",
      "(?:ab)+",
      "(?=a)b+",
      "(?<n>ab)+",
      "(?<=a)(bc)+",
      "(?<!a)(bc)*",
      "((ab))+",
      "(a+){2,3}",
      "(a+){2}",
      "^\\d<",
      "\\w<x>",
    ];
    expect(accepted.map((p) => [p, patternVerdict(p)])).toEqual(accepted.map((p) => [p, "accepted"]));
  });

  // The same definition applied twice, the second time one level deeper: its deepest schema is
  // one level deeper too, however an implementation avoids evaluating it again.
  // `$defs`: `name` (the definition under test) and p0 -> p1 -> ... -> p<n-1> -> last ({}).
  const twice = (name: string, def: Schema, chain: number): Schema => {
    const $defs: Record<string, Schema> = { [name]: def, last: {} };
    for (let i = 0; i < chain; i++) $defs[`p${i}`] = { $ref: i + 1 < chain ? `#/$defs/p${i + 1}` : "#/$defs/last" };
    const ref = { $ref: `#/$defs/${name}` };
    return { allOf: [ref, { allOf: [ref] }], $defs };
  };
  const depthVerdict = (schema: Schema) => validate(schema, { a: 1 }).errors.map((e) => [e.path, e.keyword, e.schemaPath]);

  l3("evaluation depth: an anyOf branch applied again one level deeper reaches one level deeper (500 fine, 501 the depth error)", () => {
    // root 1, allOf/0 2, x 3, x's branch 4, p0 5, last 5 + n; through allOf/1/allOf/0 all one more: last at 6 + n.
    const x: Schema = { anyOf: [{ $ref: "#/$defs/p0" }] };
    expect(depthVerdict(twice("x", x, 494)), "rule: deepest object schema at level 500 is applied").toEqual([]);
    expect(depthVerdict(twice("x", x, 495)), "rule: an object schema at level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: an anyOf branch whose deepest schema comes from an inner branch applied twice, itself applied again deeper", () => {
    // y's branch at 4: x at 6 (last at 8 + n) and x at 7 (last at 9 + n); y again one deeper: last at 10 + n.
    const $defsX: Schema = { anyOf: [{ $ref: "#/$defs/p0" }] };
    const y: Schema = { anyOf: [{ allOf: [{ $ref: "#/$defs/x" }, { allOf: [{ $ref: "#/$defs/x" }] }] }] };
    const at = (n: number): Schema => {
      const schema = twice("y", y, n) as { $defs: Record<string, Schema> };
      schema.$defs.x = $defsX;
      return schema as Schema;
    };
    expect(depthVerdict(at(490)), "rule: deepest object schema at level 500 is applied").toEqual([]);
    expect(depthVerdict(at(491)), "rule: an object schema at level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: a boolean schema never counts, even as a $ref target one level past 500", () => {
    // root 1, p0 ... p498 at 2 ... 500, and the definition `last` at 501.
    const chainTo = (last: Schema): Schema => {
      const $defs: Record<string, Schema> = { last };
      for (let i = 0; i < 499; i++) $defs[`p${i}`] = { $ref: i + 1 < 499 ? `#/$defs/p${i + 1}` : "#/$defs/last" };
      return { $ref: "#/$defs/p0", $defs };
    };
    expect(depthVerdict(chainTo(true)), "rule: boolean schemas apply nothing and never count").toEqual([]);
    expect(depthVerdict(chainTo(false)), "rule: a false schema at 501 still fails, as false, not as too deep").toEqual([["", "false", "/$defs/last"]]);
    expect(depthVerdict(chainTo({})), "rule: an object schema at 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: an anyOf branch counts its deepest schema, whether a deep or a shallow part comes last", () => {
    // e's branch at 4: p0 at 6, last at 6 + n, then a shallow anyOf; applied again one deeper: 7 + n.
    const e: Schema = { anyOf: [{ allOf: [{ $ref: "#/$defs/p0" }, { anyOf: [{ type: "object" }] }] }] };
    expect(depthVerdict(twice("e", e, 493)), "rule: deep part first, level 500 is applied").toEqual([]);
    expect(depthVerdict(twice("e", e, 494)), "rule: deep part first, level 501 is the depth error").toEqual([["", "depth", ""]]);
    // z's branch at 4 is itself an anyOf: p0 at 6, last at 6 + n; applied again one deeper: 7 + n.
    const z: Schema = { anyOf: [{ anyOf: [{ $ref: "#/$defs/p0" }] }] };
    expect(depthVerdict(twice("z", z, 493)), "rule: nested anyOf, level 500 is applied").toEqual([]);
    expect(depthVerdict(twice("z", z, 494)), "rule: nested anyOf, level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  // Arrays (or objects under the key "a") nested `levels` deep around the number 1.
  const deepArray = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };
  const deepObject = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };
  const verdict = (schema: Schema, value: unknown) => validate(schema, value).errors.map((e) => [e.path, e.keyword, e.schemaPath]);

  l3("a value nested too deep is the one depth error whatever the schema, also one that reports, compares or prints the value", () => {
    for (const levels of [MAX_DEPTH + 1, 100_000]) {
      const array = deepArray(levels);
      const object = deepObject(levels);
      const cases: Array<[Schema, unknown]> = [
        [true, array],
        [false, array],
        [{ type: "string" }, array],
        [{ enum: [1, [1]] }, array],
        [{ const: [[1]] }, array],
        [{ not: {} }, array],
        [{ anyOf: [{ type: "string" }] }, array],
        [{ uniqueItems: true }, [array, array]],
        [{ minItems: 1 }, array],
        [{ items: { $ref: "#" } }, array],
        [{ properties: { x: {} } }, { a: object }],
        [{ additionalProperties: false }, { a: object }],
        [{ properties: { a: { $ref: "#" } } }, object],
        [{ required: ["b"] }, object],
      ];
      // One callEach (realm.ts): each deep value crosses to a graded run's sandbox once, not once a case.
      const results = callEach(validate, cases);
      for (const [i, [schema]] of cases.entries()) {
        const found = results[i].errors.map((e) => [e.path, e.keyword, e.schemaPath]);
        expect(found, `rule: ${levels} levels under ${JSON.stringify(schema)} is one depth error`).toEqual([["", "depth", ""]]);
      }
    }
    const instance = { n: "5", a: deepObject(MAX_DEPTH) };
    const coerced = validate({ properties: { n: { type: "number" } } }, instance, { coerce: true });
    expect([coerced.errors.map((e) => e.keyword), coerced.coercions, coerced.value === instance], "rule: with a depth error nothing is coerced and value is the instance").toEqual([
      ["depth"],
      [],
      true,
    ]);
  });

  l3("exactly MAX_DEPTH levels are fine, one more is not, also through schemas that look at every level", () => {
    const cases: Array<[Schema, (levels: number) => unknown]> = [
      [{ items: { $ref: "#" } }, deepArray],
      [{ properties: { a: { $ref: "#" } } }, deepObject],
      [{ additionalProperties: { $ref: "#" } }, deepObject],
      [{ required: ["a"], properties: { a: { anyOf: [{ type: "integer" }, { $ref: "#" }] } } }, deepObject],
    ];
    // Schemas nested as deep as allowed (100 levels below the root), one level per level of the
    // value, down to a last one with nothing to say about the members of the value it meets.
    const described = (keyword: "properties" | "items", last: Schema): Schema => {
      let schema = last;
      for (let i = 0; i < MAX_DEPTH; i++) schema = keyword === "items" ? { items: schema } : { properties: { a: schema } };
      return schema;
    };
    cases.push([described("properties", { required: [] }), deepObject], [described("items", { items: true }), deepArray]);
    for (const [schema, deep] of cases) {
      const name = JSON.stringify(schema).slice(0, 80);
      expect(verdict(schema, deep(MAX_DEPTH)), `rule: ${MAX_DEPTH} levels under ${name} are fine`).toEqual([]);
      expect(verdict(schema, deep(MAX_DEPTH + 1)), `rule: ${MAX_DEPTH + 1} levels under ${name} are one depth error`).toEqual([["", "depth", ""]]);
    }
  });

  l3("depth counts nesting, not size: many arrays and objects side by side stay one level each, call after call", () => {
    const objects = Array.from({ length: 3 * MAX_DEPTH }, (_, i) => ({ a: i }));
    const arrays = Array.from({ length: 3 * MAX_DEPTH }, (_, i) => [i]);
    const ofObjects: Schema = { items: { properties: { a: { type: "integer" } } } };
    const ofArrays: Schema = { items: { items: { type: "integer" } } };
    for (let round = 0; round < 2; round++) {
      expect(verdict(ofObjects, objects), "rule: 300 objects in an array are 2 levels").toEqual([]);
      expect(verdict(ofArrays, arrays), "rule: 300 arrays in an array are 2 levels").toEqual([]);
      expect(verdict(ofObjects, { x: objects }), "rule: 300 objects in an array in an object are 3 levels").toEqual([]);
      expect(verdict({ items: { properties: { a: { minimum: 0 } } } }, objects), "rule: 300 objects in an array are 2 levels").toEqual([]);
    }
  });

  l3("evaluation depth: an anyOf branch counts its deepest schema when a shallower type-only schema comes after it", () => {
    // As "whether a deep or a shallow part comes last" above, with a number as the instance.
    const e: Schema = { anyOf: [{ allOf: [{ $ref: "#/$defs/p0" }, { type: "integer" }] }] };
    const scalarVerdict = (schema: Schema) => verdict(schema, 1);
    expect(scalarVerdict(twice("e", e, 493)), "rule: deep part first, level 500 is applied").toEqual([]);
    expect(scalarVerdict(twice("e", e, 494)), "rule: deep part first, level 501 is the depth error").toEqual([["", "depth", ""]]);
  });

  l3("evaluation depth: a schema with nothing but `type`, applied to a number at level 501, is the depth error", () => {
    // root 1, p0 ... p<n-1> at 2 ... n + 1, the definition `last` at n + 2.
    const chainTo = (last: Schema, n: number): Schema => {
      const $defs: Record<string, Schema> = { last };
      for (let i = 0; i < n; i++) $defs[`p${i}`] = { $ref: i + 1 < n ? `#/$defs/p${i + 1}` : "#/$defs/last" };
      return { $ref: "#/$defs/p0", $defs };
    };
    for (const last of [{ type: "integer" }, {}] as Schema[]) {
      expect(verdict(chainTo(last, 498), 1), `rule: ${JSON.stringify(last)} at level 500 is applied`).toEqual([]);
      expect(verdict(chainTo(last, 499), 1), `rule: ${JSON.stringify(last)} at level 501 is the depth error`).toEqual([["", "depth", ""]]);
    }
    // The same with the deepest schema reached inside an anyOf branch applied twice, one level
    // deeper the second time (see "twice" above): last at 5 + n, then at 6 + n.
    const x: Schema = { anyOf: [{ $ref: "#/$defs/p0" }] };
    const withLast = (chain: number): Schema => {
      const schema = twice("x", x, chain) as { $defs: Record<string, Schema> };
      schema.$defs.last = { type: "integer" };
      return schema as Schema;
    };
    expect(verdict(withLast(494), 1), "rule: a type-only schema at level 500 is applied").toEqual([]);
    expect(verdict(withLast(495), 1), "rule: a type-only schema at level 501 is the depth error").toEqual([["", "depth", ""]]);
  });
});

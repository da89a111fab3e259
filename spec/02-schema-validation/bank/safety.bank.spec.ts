// Held-out bank, kata 2, task 7: the safety limits (prototype names, instance and schema depth,
// evaluation depth, $ref loops, unsafe patterns), with inputs the visible specs do not use.
import fc from "fast-check";
import { describe, expect } from "vitest";
import { MAX_DEPTH, MAX_PATTERN_LENGTH, validate, type Schema } from "@impl/02-schema-validation";
import { l3 } from "../../support/graded.ts";
import { ajvValid } from "../ajv-oracle.ts";
import { pairs, schemaError, valid } from "./helpers.ts";

describe("7. Safety limits", () => {
  l3("more patterns refused before they run, and harmless look-alikes accepted", () => {
    for (const p of ["(x+x+)+y", "(\\w+\\s?)*$", "(a|b)*c", "(?<n>a)\\k<n>", "(a)\\1", "(?:a+){2,}", "(a?)+", "x".repeat(MAX_PATTERN_LENGTH + 1)]) {
      expect(schemaError({ pattern: p }, ""), p.slice(0, 20)).toBe("unsafe_pattern /pattern");
    }
    for (const p of ["^(ab)*$", "[(a+)+]", "\\(a+\\)+", "(a+){2}", "x".repeat(MAX_PATTERN_LENGTH)]) {
      expect(schemaError({ pattern: p }, ""), p.slice(0, 20)).toBe("no error");
    }
  });

  l3(`objects and arrays mixed: ${MAX_DEPTH} levels are fine, one more is one depth error whatever the schema`, () => {
    const nest = (levels: number) => {
      let d: unknown = 1;
      for (let i = 0; i < levels; i++) d = i % 2 ? [d] : { k: d };
      return d;
    };
    expect(validate(true, nest(MAX_DEPTH)).errors).toEqual([]);
    for (const schema of [true, { type: "string" }, { items: false }] as Schema[]) {
      expect(validate(schema, nest(MAX_DEPTH + 1)).errors).toEqual([{ path: "", keyword: "depth", message: expect.any(String), schemaPath: "" }]);
    }
  });

  l3(`null is no level: ${MAX_DEPTH} mixed levels with nulls beside and below them are fine, one more is the depth error`, () => {
    // The innermost level an object or an array, by `shift`.
    const nest = (levels: number, shift: number) => {
      let d: unknown = null;
      for (let i = 0; i < levels; i++) d = (i + shift) % 2 ? { k: d, n: null } : [null, d];
      return d;
    };
    for (const schema of [{}, { type: ["array", "object"] }] as Schema[]) {
      for (const shift of [0, 1]) {
        expect(validate(schema, nest(MAX_DEPTH, shift)).errors, JSON.stringify(schema)).toEqual([]);
        expect(validate(schema, nest(MAX_DEPTH + 1, shift)).errors.map((e) => e.keyword), JSON.stringify(schema)).toEqual(["depth"]);
      }
    }
  });

  l3("a $ref loop through allOf is ref_cycle; recursion that moves into the instance is fine", () => {
    expect(schemaError({ $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" }, 1)).toMatch(/^ref_cycle /);
    const list: Schema = { $defs: { l: { anyOf: [{ type: "null" }, { type: "object", properties: { next: { $ref: "#/$defs/l" } } }] } }, $ref: "#/$defs/l" };
    expect(valid(list, { next: { next: { next: null } } })).toBe(true);
    expect(valid(list, { next: { next: 3 } })).toBe(false);
  });

  l3("toString, constructor and __proto__ are ordinary names in required and properties", () => {
    expect(pairs({ required: ["toString", "constructor"], properties: { ["__proto__"]: { type: "string" } } }, {})).toEqual([
      ["/toString", "required"], ["/constructor", "required"],
    ]);
    expect(valid({ required: ["toString"] }, { toString: 1 })).toBe(true);
    expect(pairs({ properties: { constructor: { type: "string" } } }, JSON.parse('{"constructor": 5}'))).toEqual([["/constructor", "type"]]);
  });

  l3("a $ref loop through not, among anyOf, oneOf and allOf steps or across definitions, is ref_cycle at one of its $refs; through items or properties under not it is fine", () => {
    const across = schemaError({ $defs: { guard: { not: { anyOf: [{ type: "null" }, { $ref: "#/$defs/check" }] } }, check: { allOf: [{ $ref: "#/$defs/guard" }] } }, properties: { v: { $ref: "#/$defs/guard" } } });
    expect(["ref_cycle /$defs/guard/not/anyOf/1/$ref", "ref_cycle /$defs/check/allOf/0/$ref"], "rule: two definitions looping through not and anyOf").toContain(across);
    expect(schemaError({ not: { not: { not: { $ref: "#" } } } }), "rule: three nots around a $ref to the root").toBe("ref_cycle /not/not/not/$ref");
    expect(schemaError({ $defs: { x: { oneOf: [{ type: "string" }, { not: { $ref: "#/$defs/x" } }] } }, $ref: "#/$defs/x" }, "abc"), "rule: a not under a oneOf branch").toBe("ref_cycle /$defs/x/oneOf/1/not/$ref");
    const fine: Schema[] = [
      { not: { items: { $ref: "#" } } },
      { not: { properties: { k: { not: { $ref: "#" } } } } },
      { not: { additionalProperties: { $ref: "#/$defs/n" } }, $defs: { n: { not: { $ref: "#" } } } },
    ];
    for (const schema of fine) {
      for (const data of [1, [], [1], [[1]], { k: 1 }, { k: { k: [] } }, { z: { z: 1 } }]) {
        expect(schemaError(schema, data), JSON.stringify(schema)).toBe("no error");
        expect(valid(schema, data), `${JSON.stringify(schema)} on ${JSON.stringify(data)}`).toBe(ajvValid(schema, data));
      }
    }
  });

  l3.property("a loop of in-place steps with a not in it, through one to three definitions, is ref_cycle at one of its $refs; one step into the instance makes it fine", () => {
    const step = fc.constantFrom("not", "anyOf", "oneOf", "allOf", "$ref" as const);
    const chain = fc.array(fc.tuple(step, fc.nat(2)), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(chain, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom("properties", "items", "additionalProperties" as const),
        fc.boolean(),
        fc.boolean(),
        (chains, notAt, moveAt, move, moves, rootRef) => {
          // A `not` on purpose, somewhere in one definition's chain.
          const which = notAt % chains.length;
          const withNot = chains.map((c, i) => (i === which ? [...c.slice(0, notAt % (c.length + 1)), ["not", 0] as [string, number], ...c.slice(notAt % (c.length + 1))] : c));
          const moving = moveAt % withNot.length;
          const refs: string[] = [];
          const $defs: Record<string, unknown> = {};
          withNot.forEach((steps, d) => {
            const at = `/$defs/def${d}`;
            const build = (k: number, here: string): unknown => {
              if (moves && d === moving && k === steps.length) {
                const inner = build(k + 1, move === "properties" ? `${here}/properties/p` : `${here}/${move}`);
                return move === "properties" ? { properties: { p: inner } } : { [move]: inner };
              }
              if (k >= steps.length) {
                refs.push(`${here}/$ref`);
                return { $ref: `#/$defs/def${(d + 1) % withNot.length}` };
              }
              const [kind, position] = steps[k];
              if (kind === "not") return { not: build(k + 1, `${here}/not`) };
              if (kind === "$ref") return { $ref: "#/$defs/leaf", ...(build(k + 1, here) as object) };
              const list: unknown[] = [{ type: "string" }, { minimum: 1 }].slice(0, position);
              list.push(build(k + 1, `${here}/${kind}/${list.length}`));
              return { [kind]: list };
            };
            $defs[`def${d}`] = build(0, at);
          });
          $defs.leaf = { description: "no loop here" };
          const schema = rootRef ? { $ref: "#/$defs/def0", $defs } : { properties: { start: { $ref: "#/$defs/def0" } }, $defs };
          const got = schemaError(schema, { start: 1 });
          if (moves) expect(got, JSON.stringify(schema)).toBe("no error");
          else {
            expect(got.split(" ")[0], JSON.stringify(schema)).toBe("ref_cycle");
            expect(refs, "a $ref of the loop").toContain(got.split(" ")[1]);
          }
        },
      ),
    );
  });

  l3("evaluation depth: 500 levels of schemas applied inside one another are fine, one level more is the depth error", () => {
    // d wraps `{items: {$ref: d}}` in 8 allOf: each array level of the instance costs 10 levels,
    // and the deepest object schema, `{items}` at the innermost array, is applied at level 10 n.
    const d = JSON.parse('{"allOf": ['.repeat(8) + '{"items": {"$ref": "#/$defs/d"}}' + "]}".repeat(8));
    const schema: Schema = { $defs: { d }, $ref: "#/$defs/d" };
    const nested = (n: number) => JSON.parse("[".repeat(n) + "]".repeat(n));
    expect(validate(schema, nested(50)).errors, "rule: level 500 is still applied").toEqual([]);
    expect(validate(schema, nested(51)), "rule: level 510 is above 500").toEqual({ valid: false, errors: [{ path: "", keyword: "depth", message: expect.any(String), schemaPath: "" }], value: nested(51), coercions: [] });
  });

  l3("evaluation depth: every anyOf branch counts, whatever matched before it, and a branch met again deeper counts again", () => {
    const d = JSON.parse('{"allOf": ['.repeat(7) + '{"items": {"$ref": "#/$defs/d"}}' + "]}".repeat(7));
    const nested = (n: number) => JSON.parse("[".repeat(n) + "]".repeat(n));
    const depth = (schema: Schema, n: number) => validate(schema, nested(n)).errors.map((e) => e.keyword);
    const reach = { $ref: "#/$defs/d" };
    const wrapped = (levels: number, inner: Schema): Schema => (levels === 0 ? inner : { allOf: [wrapped(levels - 1, inner)] });
    // Through `reach` at level 2 the deepest schema is at 9 n + 1; through four allOf more, at 9 n + 5.
    expect(depth({ $defs: { d }, anyOf: [reach] }, 55), "rule: 496 levels").toEqual([]);
    expect(depth({ $defs: { d }, anyOf: [wrapped(4, reach)] }, 55), "rule: 500 levels").toEqual([]);
    expect(depth({ $defs: { d }, anyOf: [wrapped(5, reach)] }, 55), "rule: 501 levels").toEqual(["depth"]);
    expect(depth({ $defs: { d }, anyOf: [{}, wrapped(5, reach)] }, 55), "rule: a branch after one that matched still counts").toEqual(["depth"]);
    expect(depth({ $defs: { d }, anyOf: [wrapped(5, reach), {}] }, 55)).toEqual(["depth"]);
    expect(depth({ $defs: { d }, oneOf: [true, wrapped(5, reach)] }, 55), "rule: oneOf's branches count too").toEqual(["depth"]);
    expect(depth({ $defs: { d }, anyOf: [reach, wrapped(5, { anyOf: [reach] })] }, 54), "rule: 9 n + 7 at n = 54 is 493 levels").toEqual([]);
    expect(depth({ $defs: { d }, anyOf: [reach, wrapped(4, { anyOf: [reach] })] }, 55), "rule: the same branch object met again four levels deeper is at 501").toEqual(["depth"]);
  });

  l3(`the schema's own nesting: an object schema ${MAX_DEPTH} levels below the root is fine, one more is too_deep, through every keyword that holds schemas`, () => {
    const steps = [
      (s: unknown) => ({ properties: { p: s } }), (s: unknown) => ({ items: s }), (s: unknown) => ({ additionalProperties: s }),
      (s: unknown) => ({ $defs: { d: s } }), (s: unknown) => ({ allOf: [s] }), (s: unknown) => ({ anyOf: [true, s] }),
      (s: unknown) => ({ oneOf: [s] }), (s: unknown) => ({ not: s }),
    ];
    const chain = (levels: number, innermost: unknown) => {
      let s = innermost;
      for (let i = 0; i < levels; i++) s = steps[i % steps.length](s);
      return s as Schema;
    };
    expect(schemaError(chain(MAX_DEPTH, { type: "string" }))).toBe("no error");
    expect(schemaError(chain(MAX_DEPTH + 1, { type: "string" })).split(" ")[0]).toBe("too_deep");
    expect(schemaError(chain(MAX_DEPTH + 1, false)), "rule: a boolean subschema is never too deep").toBe("no error");
    expect(schemaError(chain(MAX_DEPTH + 2, true)).split(" ")[0], "rule: its object parent at level 101 is").toBe("too_deep");
  });

  l3("patterns: unbounded groups with a quantifier or a | anywhere inside are refused; bounded repeats, literals, classes and look-arounds are not", () => {
    const refused = ["(?:x|y)*", "(a{2})+", "(a{1,3}){2,}", "(a+?)+", "(?<n>a+)*", "(a)(b)(c)(d)(e)(f)(g)(h)(i)\\9", "(\\d{4})*", "((?:a|b)c)+", "(a(?:b|c))*?", "(x?y)+z", "(?<w>x)y\\k<w>"];
    for (const p of refused) expect(schemaError({ pattern: p }, ""), p).toBe("unsafe_pattern /pattern");
    const accepted = ["(a)+", "((a))+", "(a+){3}", "(a+){2,5}", "(?=a+)b", "(a|b)", "[|+*]+", "(\\|)+", "([*+?])+", "(a\\+)+", "(a\\d)+", "(x{2}){3}", "(a){2,}", "(?:ab)*", "(?<y>\\d)+", "(?<!a)b+"];
    for (const p of accepted) expect(schemaError({ pattern: p }, ""), p).toBe("no error");
  });

  l3("prototype names: an inherited member is absent, an own __proto__ is a member, and coercion writes it as an own key", () => {
    expect(valid({ properties: { constructor: { type: "string" } } }, {}), "rule: {}.constructor is inherited, not a member").toBe(true);
    expect(pairs({ required: ["hasOwnProperty", "valueOf"] }, {})).toEqual([["/hasOwnProperty", "required"], ["/valueOf", "required"]]);
    expect(pairs({ additionalProperties: false }, JSON.parse('{"__proto__": 1}'))).toEqual([["/__proto__", "additionalProperties"]]);
    expect(valid({ const: JSON.parse('{"__proto__": 1}') }, {})).toBe(false);
    const input = JSON.parse('{"__proto__": "5", "x": "6"}');
    const r = validate({ properties: { ["__proto__"]: { type: "number" }, x: { type: "number" } } }, input, { coerce: true });
    expect(r.errors).toEqual([]);
    const copy = r.value as Record<string, unknown>;
    expect([Object.getOwnPropertyDescriptor(copy, "__proto__")?.value, copy.x, Object.getPrototypeOf(copy) === Object.prototype]).toEqual([5, 6, true]);
    expect(({} as Record<string, unknown>).x, "nothing was written to Object.prototype").toBeUndefined();
  });

  l3("instance depth: schemas that enter every level, keywords that compare or quote the value, and siblings that each stay one level", () => {
    const nested = (n: number) => JSON.parse("[".repeat(n) + "]".repeat(n));
    const depthError = [{ path: "", keyword: "depth", message: expect.any(String), schemaPath: "" }];
    const tree: Schema = { items: { $ref: "#" }, additionalProperties: { $ref: "#" } };
    expect(validate(tree, nested(MAX_DEPTH)).errors, "rule: 100 levels entered one by one are fine").toEqual([]);
    expect(validate(tree, nested(MAX_DEPTH + 1)).errors).toEqual(depthError);
    for (const schema of [{ type: "array" }, { type: ["object", "array"] }, { enum: [1] }, { const: [] }, { uniqueItems: true }, { not: { type: "string" } }] as Schema[]) {
      expect(validate(schema, nested(MAX_DEPTH + 1)).errors, JSON.stringify(schema)).toEqual(depthError);
    }
    const siblings = Array.from({ length: 3 * MAX_DEPTH }, () => [[{ k: [] }]]);
    expect(validate(tree, siblings).errors, "rule: side by side, not inside one another").toEqual([]);
    expect(validate({ type: "array", items: { type: "array", items: { type: "array" } } }, siblings).errors).toEqual([]);
  });

  l3("evaluation depth through a chain of $refs: a type-only schema applied at level 500 is fine, at 501 it is the depth error, whatever its verdict", () => {
    const chain = (n: number): Schema => {
      const $defs: Record<string, Schema> = {};
      for (let i = 0; i < n - 1; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
      $defs[`d${n - 1}`] = { type: "number" };
      return { $defs, $ref: "#/$defs/d0" };
    };
    // The root is at level 1 and d_i at level i + 2: the last of n definitions is at n + 1.
    expect(validate(chain(499), 5).errors).toEqual([]);
    expect(validate(chain(499), "x").errors.map((e) => e.keyword)).toEqual(["type"]);
    expect(validate(chain(500), 5).errors.map((e) => e.keyword)).toEqual(["depth"]);
    expect(validate(chain(500), "x").errors.map((e) => e.keyword)).toEqual(["depth"]);
  });

  l3("patterns: what a class, an escape or a group prefix hides is skipped, and only what follows them is judged", () => {
    const refused = ["[a](x+)+", "[ab](x+)+", "(?<=a)(x+)+", "(?<!a)(x+)+", "((a)+)+", "((a|b))+", "((a)?)*", "(a{10})+", "(a{2,5})+"];
    for (const p of refused) expect(schemaError({ pattern: p }, ""), p).toBe("unsafe_pattern /pattern");
    const accepted = ["(?:\\+)+", "[\\](x+)+]", "(a+)?", "(a|b)?", "\\w<\\w"];
    for (const p of accepted) expect(schemaError({ pattern: p }, ""), p).toBe("no error");
  });
});

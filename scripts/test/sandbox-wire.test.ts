// The sandbox's wire (spec/support/sandbox/wire.ts): the graded code's answers that are plain data
// cross as JSON text of their own, and nothing that the full description keeps (an identity, a
// shared object, undefined, -0, a class) is lost on that path.
import { describe, expect, test } from "vitest";
import { Codec, Identities, type Json } from "../../spec/support/sandbox/wire.ts";

const live = {
  remoteFunction: () => () => undefined,
  remotePromise: () => new Promise(() => {}),
  remoteSignal: () => new AbortController(),
  promiseSent: () => {},
  signalSent: () => {},
};
const side = () => new Codec({ identities: new Identities(), live, callable: () => true, classes: {} });

/** A message's trip over the pipe: JSON text, as the channel sends it. */
const overThePipe = (message: Json): { v: Json; o: Json } => JSON.parse(JSON.stringify(message)) as { v: Json; o: Json };

/** What the graded code's side answers with `value`, as the specs' side reads it. */
function answer(value: unknown, kata = side(), specs = side()): { wire: Json; read: unknown } {
  const encoder = kata.encoder(false);
  const wire = encoder.wholeSlot(value);
  const message = overThePipe({ v: wire, o: encoder.table() });
  const decoder = specs.decoder(message.o);
  const read = decoder.slot(message.v);
  decoder.finish();
  return { wire, read };
}

const kindOf = (wire: Json) => (wire !== null && typeof wire === "object" && !Array.isArray(wire) ? wire.$ : undefined);

describe("a whole answer of plain data crosses as JSON text", () => {
  test("a list of results: one JSON text, read back equal", () => {
    const calls = Array.from({ length: 500 }, (_, i) => ({ name: `tool_${i}`, args: [i, "a\"b", true, null], kwargs: { city: "北京", n: -1.5 }, span: { start: i, end: i + 1 } }));
    const { wire, read } = answer({ calls, errors: [] });
    expect(kindOf(wire)).toBe("j");
    expect(read).toStrictEqual({ calls, errors: [] });
  });

  test("keys that mean something to the codec or to objects are plain keys inside the text", () => {
    const value = JSON.parse('{"$":"r","id":1,"__proto__":{"polluted":true},"constructor":"x"}') as object;
    const { wire, read } = answer(value);
    expect(kindOf(wire)).toBe("j");
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read as object)).toEqual(["$", "id", "__proto__", "constructor"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe("what JSON text would lose keeps the full description", () => {
  test("the specs' own object, handed back, arrives as itself", () => {
    const specs = side();
    const kata = side();
    const instance = { a: 1, b: [1] };
    // The specs pass it to the kata (with identity): the kata's side holds a mirror of it.
    const out = specs.encoder();
    const sent = overThePipe({ v: out.slot(instance), o: out.table() });
    const inKata = kata.decoder(sent.o);
    const mirror = inKata.slot(sent.v);
    inKata.finish();
    const { wire, read } = answer({ value: mirror, coercions: [] }, kata, specs);
    expect(kindOf(wire)).not.toBe("j");
    expect((read as { value: unknown }).value).toBe(instance);
  });

  test("one object twice arrives as one object", () => {
    const shared = { k: 1 };
    const { wire, read } = answer([shared, shared]);
    expect(kindOf(wire)).not.toBe("j");
    const [first, second] = read as object[];
    expect(first).toBe(second);
  });

  test.each([
    ["an undefined value", { a: undefined }],
    ["minus zero", { n: -0 }],
    ["NaN", [Number.NaN]],
    ["a date", { at: new Date(0) }],
    ["a class instance", { m: new Map([[1, 2]]) }],
    ["a frozen object", Object.freeze({ a: 1 })],
    ["an array with a hole", [1, , 3]],
  ])("%s", (_, value) => {
    const { wire, read } = answer(value);
    expect(kindOf(wire)).not.toBe("j");
    expect(read).toStrictEqual(value);
    expect(Object.isFrozen(read)).toBe(Object.isFrozen(value));
  });

  test("a value nested deeper than JSON text is sent for crosses described", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 1000; i++) deep = [deep];
    const { wire, read } = answer(deep);
    expect(kindOf(wire)).not.toBe("j");
    expect(read).toStrictEqual(deep);
  });

  test("a getter that throws or a proxy never breaks the answer", () => {
    const throwing = Object.defineProperty({}, "x", { enumerable: true, get: () => { throw new Error("no"); } });
    expect(() => answer({ throwing })).not.toThrow();
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error("trap"); } });
    expect(() => answer({ proxy })).not.toThrow();
  });

  test("an encoder that keeps identities (the specs' side) never sends JSON text", () => {
    const encoder = side().encoder(true);
    expect(kindOf(encoder.wholeSlot({ a: [1, 2] }))).not.toBe("j");
  });

  test("JSON text that is not JSON breaks the message, never the reader", () => {
    const decoder = side().decoder(undefined);
    expect(() => decoder.slot({ $: "j", t: "{not json" })).toThrow(SyntaxError);
    expect(() => decoder.slot({ $: "j", t: 7 })).toThrow(/JSON text/);
  });
});

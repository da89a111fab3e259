// The language spoken between the specs' process and a graded kata's sandbox process: plain JSON,
// so that a sandbox written in another language could speak it too.
//
// A value travels as a slot: a JSON string, boolean, finite number or null stands for itself;
// anything else is an object with a "$" key: {"$": "u"} is undefined, {"$": "n", "v": "NaN"} a
// number JSON has no digits for, {"$": "i", "v": "10"} a BigInt, {"$": "k", "id": 7} the object
// the message describes under the sender's id 7, {"$": "r", "id": 3} the receiver's own object 3.
// A message's whole value that is plain data keeping no identity may cross as {"$": "j", "t": text},
// JSON text of its own (Encoder.wholeSlot).
// Every object a message carries is described once, flat, in the message's table `o` (so a value
// nested 10,000 deep, which JSON.stringify cannot write as nested JSON, crosses as well as a flat
// one, and cycles need nothing special).
//
// Objects cross by description, never by reference. The receiver builds a copy (a mirror) and
// remembers whose object it mirrors, so that identity survives: an object crossing again refreshes
// the same mirror in place (the sender may have changed it), and an object going back to the side
// it came from crosses as {"$": "r"}: that side gets its own object, itself. A function crosses
// as a handle the receiver calls back; a promise as one that settles when the sender's does; an
// AbortSignal as one that aborts when the sender's does. Changes a side makes to its mirrors of
// plain objects and arrays are sent back to their owner (`changes`), so a spec that checks an
// argument was not mutated keeps its meaning.
//
// What comes from the graded code is data. A function in it can be called only as a method the
// kata's API names (`callable`); any other arrives as a function that refuses to run. No getter,
// `asymmetricMatch`, `then` or `Symbol.hasInstance` of the graded code can run in the specs'
// process. Reading a hostile value never breaks the reader: a getter or proxy trap that throws is
// described as throwing, and the mirror throws the same way when touched.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A flag on a property of the general form: hidden (not enumerable), or a getter that throws. */
type PropFlag = "h" | "g";
type Prop = [key: string, value: Json] | [key: string, value: Json, flag: PropFlag];

/** Error classes both sides know by name: the built-in ones, and the kata's own (CodecOptions.classes). */
const BUILTIN_ERRORS: Record<string, Function> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
  AggregateError,
  ...(typeof DOMException === "function" ? { DOMException } : {}),
};

const TYPED_ARRAYS = ["Uint8Array", "Int8Array", "Uint8ClampedArray", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"] as const;

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WireError";
  }
}

/** A side's record of what has crossed: its own objects by id, and its mirrors of the other side's. */
export class Identities {
  // Ids are handed out in order, from 1: arrays indexed by id are the cheapest tables for them.
  private next = 1;
  private readonly ids = new WeakMap<object, number>();
  private readonly symbolIds = new Map<symbol, number>();
  private readonly owned: unknown[] = [];
  private readonly mirrors: unknown[] = [];
  private readonly mirrorOf = new WeakMap<object, number>();
  private readonly symbolMirrorOf = new Map<symbol, number>();

  /** The id this side gave `value`, if it gave it one. */
  known(value: object | symbol): number | undefined {
    return typeof value === "symbol" ? this.symbolIds.get(value) : this.ids.get(value);
  }

  /** Gives `value` an id of this side (it has none yet). */
  assign(value: object | symbol): number {
    const id = this.next++;
    if (typeof value === "symbol") this.symbolIds.set(value, id);
    else this.ids.set(value, id);
    this.owned[id] = value;
    return id;
  }

  /** This side's own object with this id (the other side sent it back). */
  own(id: number): unknown {
    if (!(id > 0 && id < this.next)) throw new WireError(`no object of this side has id ${id}`);
    return this.owned[id];
  }

  /** When `value` is this side's mirror of an object of the other side: that object's id. */
  mirrorId(value: object | symbol): number | undefined {
    return typeof value === "symbol" ? this.symbolMirrorOf.get(value) : this.mirrorOf.get(value);
  }

  mirror(id: number): unknown {
    return this.mirrors[id];
  }

  setMirror(id: number, value: object | symbol): void {
    this.mirrors[id] = value;
    if (typeof value === "symbol") this.symbolMirrorOf.set(value, id);
    else this.mirrorOf.set(value, id);
  }
}

/** What a side does with the live things that cross: functions, promises, signals. */
export interface Live {
  /** A function of the other side, as this side calls it. */
  remoteFunction(id: number, name: string, length: number): (...args: unknown[]) => unknown;
  /** A promise of the other side: settled when the other side says so. */
  remotePromise(id: number): Promise<unknown>;
  /** An AbortSignal of the other side, and how to abort it when the other side's aborts. */
  remoteSignal(id: number): AbortController;
  /** This side's promise crosses for the first time: tell the other side when it settles. */
  promiseSent(promise: Promise<unknown>, id: number): void;
  /** This side's signal crosses for the first time: tell the other side when it aborts. */
  signalSent(signal: AbortSignal, id: number): void;
}

export interface CodecOptions {
  identities: Identities;
  live: Live;
  /**
   * Whether a function of this side may cross as one the other side can call: `method` is the
   * property name it is found under (undefined anywhere else). The specs' side lets every
   * function cross (a tool's `run`, a model, a clock); the graded code's side only the methods
   * the kata's API names.
   */
  callable(method: string | undefined): boolean;
  /** The kata's own error classes, by name (the same names on both sides). */
  classes: Record<string, Function>;
}

/** The shallow state of a mirror when it arrived: what this side does to it is reported back. */
export interface Arrival {
  id: number;
  target: object;
  keys: string[];
  values: unknown[];
}

export class Codec {
  readonly identities: Identities;
  readonly live: Live;
  readonly callable: (method: string | undefined) => boolean;
  private readonly errorProtos = new Map<object, string>();
  private readonly errorClasses = new Map<string, Function>();

  constructor(options: CodecOptions) {
    this.identities = options.identities;
    this.live = options.live;
    this.callable = options.callable;
    for (const [name, ctor] of [...Object.entries(options.classes), ...Object.entries(BUILTIN_ERRORS)]) {
      const proto = (ctor as { prototype?: unknown }).prototype;
      if (typeof ctor !== "function" || typeof proto !== "object" || proto === null || this.errorClasses.has(name)) continue;
      this.errorProtos.set(proto, name);
      this.errorClasses.set(name, ctor);
    }
  }

  /** The most derived error class both sides know, of an object with this prototype. */
  errorClassOf(proto: object | null): string | undefined {
    for (let p = proto; p !== null; p = Object.getPrototypeOf(p) as object | null) {
      const name = this.errorProtos.get(p);
      if (name !== undefined) return name;
    }
    return undefined;
  }

  errorClass(name: string): Function {
    return this.errorClasses.get(name) ?? Error;
  }

  /** See Encoder: `persistent` false for the graded code's answers. */
  encoder(persistent = true): Encoder {
    return new Encoder(this, persistent);
  }

  /** Decodes a message's table; `arrivals` collects the mirrors of plain objects and arrays it refreshed. */
  decoder(table: Json | undefined, arrivals?: Arrival[]): Decoder {
    return new Decoder(this, table, arrivals);
  }

  /** Whether this side changed any of the mirrors that arrived (`changes` would report one). */
  changed(arrivals: readonly Arrival[]): boolean {
    return arrivals.some((arrival) => !unchanged(arrival, stateOf(arrival.id, arrival.target)));
  }

  /** What this side did to the mirrors that arrived: each changed one's new content, for its owner. */
  changes(arrivals: readonly Arrival[], encoder: Encoder): Json[] {
    const out: Json[] = [];
    for (const arrival of arrivals) {
      const now = stateOf(arrival.id, arrival.target);
      if (unchanged(arrival, now)) continue;
      if (Array.isArray(arrival.target)) out.push({ id: arrival.id, a: now.values.map((v) => encoder.slot(v)) });
      else {
        const v: JsonObject = {};
        now.keys.forEach((key, i) => defineOwn(v, key, encoder.slot(now.values[i], key)));
        out.push({ id: arrival.id, o: v });
      }
      arrival.keys = now.keys;
      arrival.values = now.values;
    }
    return out;
  }

  /** Applies the other side's changes to this side's own objects. */
  applyChanges(changes: Json | undefined, decoder: Decoder): void {
    if (!Array.isArray(changes)) return;
    for (const change of changes) {
      if (change === null || typeof change !== "object" || Array.isArray(change)) throw new WireError("a change must be an object");
      const target = this.identities.own(idOf(change));
      if (typeof target !== "object" || target === null || Object.isFrozen(target)) continue;
      if (Array.isArray(change.a) && Array.isArray(target)) refillArray(target, change.a.map((s) => decoder.slot(s)));
      else if (isObject(change.o)) {
        const source = change.o;
        const keys = Object.keys(source);
        refill(target as Record<string, unknown>, keys, keys.map((k) => decoder.slot(source[k])));
      }
    }
  }
}

/**
 * Encodes the values of one message. An object is described where it first stands (its slot is
 * its description, nested like the value), INLINE_DEPTH levels deep at most: what lies deeper is
 * described in the message's table, flat, so that no nesting, however deep, reaches JSON's or the
 * stack's limits. A later mention of an object already described is {"$": "k", "id"}; the first
 * description then gets that id too (a local, negative one for data that keeps no identity).
 */
export class Encoder {
  /** The objects this message has described (or put in its table), and their descriptions. */
  private readonly placed = new Map<object | symbol, JsonObject>();
  /** Described in the table, in order: objects deeper than INLINE_DEPTH below the last inline root. */
  private readonly deferred: Array<{ value: object | symbol; entry: JsonObject; fresh: boolean; depth: number }> = [];
  private nextLocal = -1;
  /** How deep below the message's values the object being described lies (for IDENTITY_DEPTH). */
  private depth = 0;
  /** How deep the current inline description is nested (for INLINE_DEPTH). */
  private nesting = 0;

  /**
   * `persistent` false: plain data (objects, arrays, errors, dates, ...) crosses as this message's
   * alone, and the receiver keeps no mirror of it. So the graded code's answers, which the specs
   * read and never hand back to be recognised, cost no bookkeeping on either side; what must keep
   * its identity (functions, promises, signals, objects with methods) always does. Data deeper
   * than IDENTITY_DEPTH crosses as the message's alone too: a value nested 100,000 deep costs its
   * bytes, not 100,000 entries in each side's tables.
   */
  constructor(private readonly codec: Codec, private readonly persistent = true) {}

  /** A value as a slot; `method` is the property name it was found under, if any. */
  slot(value: unknown, method?: string): Json {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        if (Number.isFinite(value) && !(value === 0 && 1 / value < 0)) return value;
        return { $: "n", v: Object.is(value, -0) ? "-0" : String(value) };
      case "undefined":
        return { $: "u" };
      case "bigint":
        return { $: "i", v: value.toString() };
      case "function":
        if (this.codec.identities.mirrorId(value) === undefined && !this.codec.callable(method)) return { $: "inert", name: safeName(value) };
        return this.object(value);
      case "symbol":
      case "object":
        return value === null ? null : this.object(value);
    }
  }

  /**
   * A message's whole value, alone in its message (no other slot can share its objects): when the
   * encoder keeps no identity and the value is a tree of plain data (plain objects and arrays,
   * strings, booleans, finite numbers, null: nothing the codec describes otherwise, no object twice),
   * it crosses as JSON text of its own ({"$": "j"}), which the receiver parses: the same value
   * as its description would give, at a fraction of the cost (a kata's long lists of results).
   */
  wholeSlot(value: unknown): Json {
    if (this.persistent || typeof value !== "object" || value === null || !isJsonTree(value, this.codec.identities)) return this.slot(value);
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return this.slot(value);
    }
    return typeof text === "string" ? { $: "j", t: text } : this.slot(value);
  }

  /** A function that crosses callable wherever it stands (a kata's exported functions). */
  callableSlot(value: Function): Json {
    return this.object(value);
  }

  private object(value: object | symbol): Json {
    const identities = this.codec.identities;
    const mirrored = identities.mirrorId(value);
    if (mirrored !== undefined) return { $: "r", id: mirrored };
    const placed = this.placed.get(value);
    if (placed) {
      if (placed.id === undefined) placed.id = this.nextLocal--;
      return { $: "k", id: placed.id };
    }
    const depth = this.depth + 1;
    let id = identities.known(value);
    let fresh = false;
    if (id === undefined && !((!this.persistent || depth > IDENTITY_DEPTH) && typeof value === "object" && isData(value))) {
      id = identities.assign(value);
      fresh = true;
    } else if (id === undefined) fresh = true;
    if (this.nesting >= INLINE_DEPTH) {
      const entry: JsonObject = { id: id ?? this.nextLocal-- };
      this.placed.set(value, entry);
      this.deferred.push({ value, entry, fresh, depth });
      return { $: "k", id: entry.id };
    }
    const saved = this.depth;
    this.depth = depth;
    this.nesting++;
    try {
      return this.describe(value, id, fresh);
    } finally {
      this.nesting--;
      this.depth = saved;
    }
  }

  /** The descriptions of the objects put off to the table: call it once, after the last slot. */
  table(): Json[] {
    const out: Json[] = [];
    for (let i = 0; i < this.deferred.length; i++) {
      const { value, entry, fresh, depth } = this.deferred[i];
      this.depth = depth;
      this.nesting = 1;
      // The entry object is the one its mentions hold: its description is written into it.
      out.push(this.describe(value, entry.id as number, fresh, entry));
    }
    return out;
  }

  /** `into`: a table entry already placed (its id set); otherwise a new description, placed first. */
  private start(value: object | symbol, kind: string, id: number | undefined, into?: JsonObject): JsonObject {
    const d = into ?? {};
    d.$ = kind;
    if (id !== undefined) d.id = id;
    if (!into) this.placed.set(value, d);
    return d;
  }

  private describe(value: object | symbol, id: number | undefined, fresh: boolean, into?: JsonObject): JsonObject {
    if (typeof value === "symbol") return Object.assign(this.start(value, "y", id, into), { d: value.description ?? null });
    if (typeof value === "function") return Object.assign(this.start(value, "f", id, into), { name: safeName(value), len: safeLength(value) });
    let proto: object | null;
    try {
      proto = Object.getPrototypeOf(value) as object | null;
    } catch (error) {
      // A proxy whose getPrototypeOf trap throws (instanceof on it throws too).
      const d = this.start(value, "x", id, into);
      d.props = [];
      d.proto = { throw: this.slot(error) };
      return d;
    }
    try {
      if (proto === Object.prototype) return this.plainObject(value as Record<string, unknown>, id, into);
      if (proto === Array.prototype) return this.array(value as unknown[], id, into);
      if (value instanceof Promise) {
        if (fresh && id !== undefined && id > 0) this.codec.live.promiseSent(value, id);
        return this.start(value, "p", id, into);
      }
      if (typeof AbortSignal === "function" && value instanceof AbortSignal) {
        if (fresh && id !== undefined && id > 0) this.codec.live.signalSent(value, id);
        const d = this.start(value, "s", id, into);
        d.aborted = value.aborted;
        d.reason = value.aborted ? this.slot(value.reason) : null;
        return d;
      }
      if (value instanceof Date) {
        const time = value.getTime();
        return Object.assign(this.start(value, "d", id, into), { v: Number.isNaN(time) ? null : time });
      }
      if (value instanceof Map) {
        const d = this.start(value, "m", id, into);
        d.v = [...value].map(([k, v]) => [this.slot(k), this.slot(v)]);
        return d;
      }
      if (value instanceof Set) {
        const d = this.start(value, "set", id, into);
        d.v = [...value].map((v) => this.slot(v));
        return d;
      }
      if (value instanceof RegExp) return Object.assign(this.start(value, "re", id, into), { s: value.source, f: value.flags });
      if (value instanceof ArrayBuffer) return Object.assign(this.start(value, "b", id, into), { k: "ArrayBuffer", v: Buffer.from(value).toString("base64") });
      if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
        const kind = Buffer.isBuffer(value) ? "Buffer" : (TYPED_ARRAYS.find((k) => value instanceof globalThis[k]) ?? "Uint8Array");
        return Object.assign(this.start(value, "b", id, into), { k: kind, v: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64") });
      }
      const errorClass = this.codec.errorClassOf(proto);
      if (errorClass !== undefined) {
        const d = this.start(value, "e", id, into);
        d.c = errorClass;
        d.props = this.props(value, false);
        return d;
      }
      return this.general(value, proto, id, into);
    } catch (error) {
      const d = this.start(value, "x", id, into);
      d.props = [];
      d.proto = { throw: this.slot(error) };
      return d;
    }
  }

  private plainObject(value: Record<string, unknown>, id: number | undefined, into?: JsonObject): JsonObject {
    let keys: string[];
    let values: unknown[];
    try {
      keys = Object.keys(value);
      // A "$" key (ours) and locks need the general form. (A plain object's hidden properties do
      // not cross: none of the katas' values has any.)
      if (!Object.isExtensible(value) || keys.includes("$")) return this.general(value, Object.prototype, id, into);
      // A getter runs once here, and what it gives crosses as data; one that throws needs the general form.
      values = keys.map((key) => value[key]);
    } catch {
      return this.general(value, Object.prototype, id, into);
    }
    const d = this.start(value, "o", id, into);
    const v: JsonObject = {};
    d.v = v;
    for (let i = 0; i < keys.length; i++) defineOwn(v, keys[i], this.slot(values[i], keys[i]));
    return d;
  }

  private array(value: unknown[], id: number | undefined, into?: JsonObject): JsonObject {
    if (!Object.isExtensible(value)) return this.general(value, Array.prototype, id, into);
    const length = value.length;
    const items: unknown[] = new Array(length);
    try {
      for (let i = 0; i < length; i++) {
        if (!(i in value)) return this.general(value, Array.prototype, id, into); // a hole
        items[i] = value[i];
      }
    } catch {
      return this.general(value, Array.prototype, id, into);
    }
    const d = this.start(value, "a", id, into);
    const v: Json[] = new Array(length);
    d.v = v;
    for (let i = 0; i < length; i++) v[i] = this.slot(items[i]);
    return d;
  }

  /** Own string-keyed properties, in order, with what a getter gives (or throws). */
  private props(value: object, methods: boolean): Prop[] {
    let names: string[];
    try {
      names = Object.getOwnPropertyNames(value);
    } catch {
      return [];
    }
    const found: Array<[string, unknown, boolean, boolean]> = [];
    for (const key of names) {
      try {
        const descriptor = Object.getOwnPropertyDescriptor(value, key);
        if (!descriptor) continue;
        found.push([key, "value" in descriptor ? descriptor.value : descriptor.get?.call(value), descriptor.enumerable === true, false]);
      } catch (error) {
        found.push([key, error, true, true]);
      }
    }
    return found.map(([key, item, enumerable, threw]): Prop => {
      if (threw) return [key, this.slot(item), "g"];
      const slot = this.slot(item, methods ? key : undefined);
      return enumerable ? [key, slot] : [key, slot, "h"];
    });
  }

  /** Anything else: its prototype's kind (or class and methods), every own property, its lock. */
  private general(value: object, proto: object | null, id: number | undefined, into?: JsonObject): JsonObject {
    const d = this.start(value, "x", id, into);
    d.proto = this.protoSlot(value, proto);
    d.props = this.props(value, true);
    if (!Object.isExtensible(value)) d.lock = Object.isFrozen(value) ? "f" : Object.isSealed(value) ? "s" : "n";
    return d;
  }

  private protoSlot(value: object, proto: object | null): Json {
    if (proto === null) return "0";
    if (proto === Object.prototype) return "o";
    if (proto === Array.prototype) return "a";
    // A class instance: its prototype crosses once, with the methods its prototype chain holds
    // (a FakeClock's `now` and `sleep`, a registry's `lookup`), so two instances of one class share
    // one prototype on the other side too.
    const identities = this.codec.identities;
    const mirrored = identities.mirrorId(proto);
    if (mirrored !== undefined) return { $: "r", id: mirrored };
    const placed = this.placed.get(proto);
    if (placed) return { $: "k", id: placed.id as number };
    const id = identities.known(proto) ?? identities.assign(proto);
    const d = this.start(proto, "cls", id);
    const m: JsonObject = {};
    for (let p: object | null = proto; p !== null && p !== Object.prototype && p !== Array.prototype; p = Object.getPrototypeOf(p) as object | null) {
      for (const key of Object.getOwnPropertyNames(p)) {
        if (key === "constructor" || Object.hasOwn(m, key)) continue;
        const descriptor = Object.getOwnPropertyDescriptor(p, key);
        if (descriptor && typeof descriptor.value === "function") defineOwn(m, key, this.slot(descriptor.value, key));
      }
    }
    const ctor = (proto as { constructor?: unknown }).constructor;
    d.cls = typeof ctor === "function" ? safeName(ctor) : "";
    d.array = Array.isArray(value);
    d.m = m;
    return d;
  }
}

/** Descriptions nest this deep at most in a message; deeper ones go to its table. */
const INLINE_DEPTH = 100;

/** Data deeper than this below a message's values keeps no identity across messages (Encoder). */
export const IDENTITY_DEPTH = 64;

/** Data, whose identity need not outlive its message: anything but what has methods or is live. */
function isData(value: object): boolean {
  let proto: object | null;
  try {
    proto = Object.getPrototypeOf(value) as object | null;
  } catch {
    return true;
  }
  if (proto === Object.prototype || proto === Array.prototype || proto === null) return true;
  return value instanceof Error || value instanceof Date || value instanceof Map || value instanceof Set || value instanceof RegExp || ArrayBuffer.isView(value);
}

/** How deep a value may nest and still cross as JSON text (JSON.stringify recurses). */
const JSON_TREE_DEPTH = 64;

/**
 * Plain data that JSON text carries exactly: what the codec would describe as plain objects and
 * arrays (extensible, no holes) of strings, booleans, finite numbers other than -0 and null, each
 * object met once and none with an identity across messages (the other side's own object, handed
 * back, must arrive as itself). Anything else (undefined, a class instance, a shared object) says no.
 */
function isJsonTree(root: object, identities: Identities): boolean {
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): boolean => {
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        return Number.isFinite(value) && !Object.is(value, -0);
      case "object":
        break;
      default:
        return false;
    }
    if (value === null) return true;
    if (depth > JSON_TREE_DEPTH || seen.has(value) || identities.mirrorId(value) !== undefined || identities.known(value) !== undefined) return false;
    seen.add(value);
    const proto = Object.getPrototypeOf(value) as object | null;
    if (!Object.isExtensible(value)) return false;
    if (proto === Array.prototype) {
      const array = value as unknown[];
      for (let i = 0; i < array.length; i++) if (!(i in array) || !visit(array[i], depth + 1)) return false;
      return true;
    }
    if (proto !== Object.prototype) return false;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) if (!visit(record[key], depth + 1)) return false;
    return true;
  };
  try {
    return visit(root, 0);
  } catch {
    return false; // a proxy trap or getter that throws: the codec describes it
  }
}

const DESCRIPTION_KINDS = new Set(["o", "a", "x", "e", "f", "p", "s", "d", "m", "set", "re", "b", "y", "cls"]);

/**
 * Decodes one message, in the order it was encoded: its values, then its table. An object is
 * built where its description stands; one the table describes is built when first mentioned and
 * filled at its turn. Call `finish` once every value of the message has been read: until then,
 * objects of the table may be empty.
 */
export class Decoder {
  private readonly built = new Map<number, unknown>();
  private readonly entries = new Map<number, JsonObject>();
  private readonly table: JsonObject[] = [];
  /** The errors that mirrors of proxies throw, filled in once the error is built. */
  private readonly controllers = new Map<number, AbortController>();

  constructor(private readonly codec: Codec, table: Json | undefined, private readonly arrivals?: Arrival[]) {
    if (table === undefined) return;
    if (!Array.isArray(table)) throw new WireError("a message's table must be an array");
    for (const entry of table) {
      if (!isObject(entry)) throw new WireError("a table entry must be an object");
      this.entries.set(idOf(entry), entry);
      this.table.push(entry);
    }
  }

  slot(wire: Json): unknown {
    if (wire === null || typeof wire !== "object") return wire;
    if (Array.isArray(wire)) throw new WireError("a bare array is not a slot");
    const tag = wire.$;
    switch (tag) {
      case "u":
        return undefined;
      case "n":
        return wire.v === "-0" ? -0 : Number(wire.v);
      case "i":
        return BigInt(String(wire.v));
      case "r":
        return this.codec.identities.own(idOf(wire));
      case "k":
        return this.mention(idOf(wire));
      case "inert":
        return inertFunction(String(wire.name ?? ""));
      case "j":
        if (typeof wire.t !== "string") throw new WireError("a JSON value must be JSON text");
        return JSON.parse(wire.t) as unknown;
    }
    if (typeof tag === "string" && DESCRIPTION_KINDS.has(tag)) {
      // Described here: built and filled now (a later mention of it is a "k").
      const id = wire.id === undefined ? undefined : idOf(wire);
      const { target, fresh } = this.make(wire, id);
      this.fill(wire, id, target as Record<string, unknown>, fresh);
      return target;
    }
    throw new WireError(`unknown slot ${JSON.stringify(tag)}`);
  }

  /** Fills what the table describes: call once, after the message's last slot. */
  finish(): void {
    for (const entry of this.table) {
      const id = idOf(entry);
      if (this.filled.has(id)) continue;
      this.filled.add(id);
      const made = this.pending.get(id) ?? this.make(entry, id);
      this.fill(entry, id, made.target as Record<string, unknown>, made.fresh);
    }
  }

  /** Table entries built (when first mentioned) and not filled yet, and whether each is new. */
  private readonly pending = new Map<number, { target: unknown; fresh: boolean }>();
  private readonly filled = new Set<number>();
  /** Per description of a proxy whose getPrototypeOf threw: the box its trap throws from. */
  private readonly boxes = new Map<JsonObject, { thrown?: unknown }>();

  private mention(id: number): unknown {
    if (this.built.has(id)) return this.built.get(id);
    const entry = this.entries.get(id);
    if (!entry) throw new WireError(`a slot names object ${id}, which the message does not describe`);
    // Described further on, in the table: built now, filled at its turn.
    const made = this.make(entry, id);
    this.pending.set(id, made);
    return made.target;
  }

  /** The object a description stands for: this side's mirror of it when there is one, else a new one. */
  private make(d: JsonObject, id: number | undefined): { target: unknown; fresh: boolean } {
    const existing = id !== undefined && id > 0 ? this.codec.identities.mirror(id) : undefined;
    const fresh = existing === undefined;
    const target = existing ?? this.shell(d, id);
    if (id !== undefined) {
      this.built.set(id, target);
      if (fresh && id > 0) this.codec.identities.setMirror(id, target as object);
    }
    return { target, fresh };
  }

  private shell(entry: JsonObject, id: number | undefined): unknown {
    const live = this.codec.live;
    const needId = () => {
      if (id === undefined || id < 0) throw new WireError(`a ${String(entry.$)} needs an id of its sender's`);
      return id;
    };
    switch (entry.$) {
      // A new plain object or array is the one JSON.parse made: its slots are replaced in place.
      case "o":
        if (!isObject(entry.v)) throw new WireError("an object's content must be an object");
        return entry.v;
      case "a":
        if (!Array.isArray(entry.v)) throw new WireError("an array's content must be an array");
        return entry.v;
      case "x": {
        const proto = entry.proto;
        if (isObject(proto) && "throw" in proto) {
          // Its getPrototypeOf trap threw: the mirror's throws the same error (filled in below).
          const box: { thrown?: unknown } = {};
          this.boxes.set(entry, box);
          return new Proxy({}, { getPrototypeOf() { throw box.thrown; } });
        }
        return proto === "a" || (isObject(proto) && proto.array === true) ? [] : {};
      }
      case "cls":
        return Object.create(entry.array === true ? Array.prototype : Object.prototype);
      case "e": {
        const name = String(entry.c);
        if (name === "DOMException") {
          const props = (Array.isArray(entry.props) ? entry.props : []) as Prop[];
          const text = (key: string) => {
            const found = props.find((p) => p[0] === key)?.[1];
            return typeof found === "string" ? found : undefined;
          };
          return new DOMException(text("message") ?? "", text("name") ?? "Error");
        }
        return Object.create((this.codec.errorClass(name) as { prototype: object }).prototype);
      }
      case "f":
        return live.remoteFunction(needId(), String(entry.name ?? ""), Number(entry.len) || 0);
      case "p":
        return live.remotePromise(needId());
      case "s": {
        const controller = live.remoteSignal(needId());
        this.controllers.set(needId(), controller);
        return controller.signal;
      }
      case "d":
        return new Date(entry.v === null ? Number.NaN : Number(entry.v));
      case "m":
        return new Map();
      case "set":
        return new Set();
      case "re":
        return new RegExp(String(entry.s), String(entry.f));
      case "b":
        return bytesOf(String(entry.k), String(entry.v));
      case "y":
        return Symbol(entry.d === null ? undefined : String(entry.d));
      default:
        throw new WireError(`unknown description ${JSON.stringify(entry.$)}`);
    }
  }

  private fill(entry: JsonObject, id: number | undefined, target: Record<string, unknown>, fresh: boolean): void {
    const tracked = this.arrivals !== undefined && id !== undefined && id > 0;
    switch (entry.$) {
      case "o": {
        if (fresh) {
          for (const key of Object.keys(target)) {
            const slot = target[key];
            if (slot !== null && typeof slot === "object") target[key] = this.slot(slot as Json);
          }
          if (tracked) this.arrivals!.push(stateOf(id!, target));
          return;
        }
        if (!isObject(entry.v)) throw new WireError("an object's content must be an object");
        const source = entry.v;
        const keys = Object.keys(source);
        const values = keys.map((key) => this.slot(source[key]));
        refill(target, keys, values);
        if (tracked) this.arrivals!.push({ id: id!, target, keys, values });
        return;
      }
      case "a": {
        if (fresh) {
          const array = target as unknown as unknown[];
          for (let i = 0; i < array.length; i++) {
            const slot = array[i];
            if (slot !== null && typeof slot === "object") array[i] = this.slot(slot as Json);
          }
          if (tracked) this.arrivals!.push(stateOf(id!, target));
          return;
        }
        if (!Array.isArray(entry.v)) throw new WireError("an array's content must be an array");
        const values = entry.v.map((item) => this.slot(item));
        refillArray(target as unknown as unknown[], values);
        if (tracked) this.arrivals!.push({ id: id!, target, keys: [], values });
        return;
      }
      case "x":
        return this.fillGeneral(entry, target, fresh);
      case "cls": {
        if (!fresh || !isObject(entry.m)) return;
        const methods = entry.m;
        for (const key of Object.keys(methods)) {
          Object.defineProperty(target, key, { value: this.slot(methods[key]), writable: true, configurable: true, enumerable: false });
        }
        return;
      }
      case "e":
        if (fresh) this.defineProps(target, entry.props);
        return;
      case "s": {
        const controller = id === undefined ? undefined : this.controllers.get(id);
        if (controller && entry.aborted === true && !controller.signal.aborted) controller.abort(this.slot(entry.reason ?? { $: "u" }));
        return;
      }
      case "d":
        (target as unknown as Date).setTime(entry.v === null ? Number.NaN : Number(entry.v));
        return;
      case "m": {
        const map = target as unknown as Map<unknown, unknown>;
        map.clear();
        for (const pair of Array.isArray(entry.v) ? entry.v : []) {
          if (Array.isArray(pair)) map.set(this.slot(pair[0]), this.slot(pair[1]));
        }
        return;
      }
      case "set": {
        const set = target as unknown as Set<unknown>;
        set.clear();
        for (const item of Array.isArray(entry.v) ? entry.v : []) set.add(this.slot(item));
        return;
      }
    }
  }

  private fillGeneral(entry: JsonObject, target: Record<string, unknown>, fresh: boolean): void {
    const proto = entry.proto;
    const box = this.boxes.get(entry);
    if (box && isObject(proto)) {
      box.thrown = this.slot(proto.throw);
      return;
    }
    if (!fresh) {
      if (Object.isFrozen(target)) return;
      for (const key of Object.getOwnPropertyNames(target)) if (!(key === "length" && Array.isArray(target))) delete target[key];
    } else if (proto === "0") Object.setPrototypeOf(target, null);
    else if (isObject(proto)) {
      const shared = this.slot(proto);
      if (typeof shared === "object") Object.setPrototypeOf(target, shared);
    }
    this.defineProps(target, entry.props);
    if (entry.lock === "f") Object.freeze(target);
    else if (entry.lock === "s") Object.seal(target);
    else if (entry.lock === "n") Object.preventExtensions(target);
  }

  private defineProps(target: object, props: Json | undefined): void {
    if (!Array.isArray(props)) return;
    for (const prop of props) {
      if (!Array.isArray(prop) || typeof prop[0] !== "string") throw new WireError("a property must be [key, slot, flag?]");
      const [key, wire, flag] = prop as Prop;
      const value = this.slot(wire);
      if (key === "length" && Array.isArray(target)) target.length = Number(value);
      else if (flag === "g") Object.defineProperty(target, key, { get() { throw value; }, enumerable: true, configurable: true });
      else Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: flag !== "h" });
    }
  }
}

function unchanged(arrival: Arrival, now: Arrival): boolean {
  return now.keys.length === arrival.keys.length && now.values.length === arrival.values.length
    && now.keys.every((k, i) => k === arrival.keys[i]) && now.values.every((v, i) => Object.is(v, arrival.values[i]));
}

function stateOf(id: number, target: object): Arrival {
  if (Array.isArray(target)) return { id, target, keys: [], values: [...target] };
  const keys = Object.keys(target);
  return { id, target, keys, values: keys.map((k) => (target as Record<string, unknown>)[k]) };
}

/** Replaces an object's own enumerable properties with these, in this order. */
function refill(target: Record<string, unknown>, keys: string[], values: unknown[]): void {
  if (Object.isFrozen(target)) return;
  for (const key of Object.keys(target)) delete target[key];
  for (let i = 0; i < keys.length; i++) defineOwn(target, keys[i], values[i]);
}

function refillArray(target: unknown[], values: unknown[]): void {
  if (Object.isFrozen(target)) return;
  target.length = values.length;
  for (let i = 0; i < values.length; i++) target[i] = values[i];
}

/** `target[key] = value`, except that "__proto__" becomes an own property, never a prototype. */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A description's id: positive for the sender's objects that keep their identity, negative for its message-local data. */
function idOf(wire: JsonObject): number {
  const id = wire.id;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id === 0) throw new WireError(`an id must be a non-zero integer: ${JSON.stringify(id)}`);
  return id;
}

function safeName(fn: Function): string {
  try {
    const name = (fn as { name?: unknown }).name;
    return typeof name === "string" ? name : "";
  } catch {
    return "";
  }
}

function safeLength(fn: Function): number {
  try {
    return Number(fn.length) || 0;
  } catch {
    return 0;
  }
}

function inertFunction(name: string): () => never {
  const inert = () => {
    throw new TypeError(`${name || "a function"} came from the graded code as data: its API names no such method, so it is not called`);
  };
  Object.defineProperty(inert, "name", { value: name });
  return inert;
}

function bytesOf(kind: string, base64: string): object {
  const buffer = Buffer.from(base64, "base64");
  if (kind === "Buffer") return buffer;
  const copy = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  if (kind === "ArrayBuffer") return copy;
  const ctor = (TYPED_ARRAYS as readonly string[]).includes(kind) ? (globalThis as unknown as Record<string, new (b: ArrayBuffer) => object>)[kind] : Uint8Array;
  return new ctor(copy);
}

// Calls across the channel, the same on both sides: the specs' process calls the kata's functions,
// the kata calls back the functions the specs gave it (a tool's `run`, a model, a clock).
//
// Every call is synchronous from the caller's side: it sends the call and its thread waits for the
// answer, serving whatever the other side asks meanwhile (a call nested inside, or one the other
// side started at the same moment). A function that returns a promise answers with a promise the
// caller then awaits; its settlement comes later, as a message of its own. So kata 1's
// `parseToolCalls` stays synchronous, and kata 3's `runAgent` is still a function that returns a
// promise.
//
// Messages (JSON, one per line; `g` is the generation, the spec file's load of the kata):
//   {t: "call", g, id, f, this, a, o}            call the receiver's function f
//   {t: "ret" | "err", g, id, v, m?, o, why?}    its value or what it threw, and the changes it made
//                                                to the caller's objects (m)
//   {t: "settle", g, p, ok, v, m?, o}            the sender's promise p settled
//   {t: "abort", g, s, reason, o}                the sender's signal s aborted
//   {t: "quiet?", id} / {t: "quiet", id}         "answer when you have nothing left to do"
//   {t: "load", g, id, url, classes, methods}   (to the kata's side) load the kata afresh; its answer
//                                                carries the kata's exports and the realm's probes
// Slots and the table `o` are wire.ts's. A message of another generation is stale: dropped, or
// answered with an error when it is a call, so that nobody waits for it.
import { Channel, ChannelClosed, type ChannelFds } from "./channel.ts";
import { Codec, Identities, WireError, type Arrival, type Json } from "./wire.ts";

type Message = { [key: string]: Json };

export interface PeerOptions {
  fds: ChannelFds;
  /** Which of this side's functions may cross as callable (wire.ts CodecOptions.callable). */
  callable(method: string | undefined): boolean;
  /** Whether the channel alone keeps the process running (the sandbox: yes; the specs: no). */
  keepAlive: boolean;
  /**
   * Whether the data this side answers with keeps its identity when it comes back (wire.ts
   * Encoder). The specs' side: yes (a tool's value, passed through by the kata, must come back as
   * itself). The graded code's side: no (its answers are read, not handed back to be recognised).
   */
  answersKeepIdentity: boolean;
  /** When this process has nothing pending but the channel (channel.ts's `start`). */
  idle?: () => boolean;
  onClose(why: string): void;
  /** A load request arrived (the kata's side only). */
  onLoad?(request: LoadRequest): Promise<LoadResult>;
  /** Around every wait for an answer: the specs' side tells its watchdog that it is blocked. */
  onBlock?(blocked: boolean): void;
}

export interface LoadRequest {
  g: number;
  /** The bundled kata (a file: URL). */
  url: string;
  /** The kata's error classes, by export name: both sides rebuild them as their own class. */
  classes: string[];
  /** The methods of the kata's API: the only functions of the graded code the specs may call, beside its exports. */
  methods: string[];
}

export interface LoadResult {
  exports: Record<string, unknown>;
  classes: Record<string, Function>;
  /** What the specs may ask of the sandbox process itself (spec/support/realm.ts). */
  realm: Record<string, Function>;
}

/** The sandbox's process ended, or broke the protocol, while a call waited on it. */
export class PeerGone extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PeerGone";
  }
}

/** One load of the kata: its own identities, promises and signals, dropped with it. */
export class Generation {
  readonly identities = new Identities();
  readonly codec: Codec;
  readonly promises = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  readonly controllers = new Map<number, AbortController>();
  /** Per promise this side answered a call with: the arrivals of that call, checked again when it settles. */
  readonly promiseArrivals = new WeakMap<object, Arrival[]>();

  constructor(readonly g: number, peer: Peer, classes: Record<string, Function>, callable: (method: string | undefined) => boolean) {
    this.codec = new Codec({
      identities: this.identities,
      classes,
      callable,
      live: {
        remoteFunction: (id, name, length) => peer.remoteFunction(this, id, name, length),
        remotePromise: (id) => {
          const promise = new Promise<unknown>((resolve, reject) => this.promises.set(id, { resolve, reject }));
          // Its rejection is the caller's to handle, as in one process; the mirror alone must not
          // report an unhandled rejection the original never had.
          promise.catch(() => {});
          return promise;
        },
        remoteSignal: (id) => {
          const controller = new AbortController();
          this.controllers.set(id, controller);
          return controller;
        },
        promiseSent: (promise, id) => {
          promise.then(
            (value) => peer.settled(this, id, true, value, promise),
            (error) => peer.settled(this, id, false, error, promise),
          );
        },
        signalSent: (signal, id) => {
          signal.addEventListener("abort", () => peer.aborted(this, id, signal.reason), { once: true });
        },
      },
    });
  }
}

export class Peer {
  readonly channel: Channel;
  /** Messages sent or received other than the quiet handshake: when it has not moved, nothing happened. */
  activity = 0;
  private current: Generation;
  private nextCall = 1;
  private readonly early = new Map<number, Message>();
  private depth = 0;

  constructor(private readonly options: PeerOptions) {
    this.current = new Generation(0, this, {}, options.callable);
    this.channel = new Channel(options.fds, (message) => this.handle(message as Message), (why) => this.closed(why));
    this.channel.start(options.keepAlive, options.idle);
  }

  get generation(): Generation {
    return this.current;
  }

  /** Starts a new generation (the specs' side, before it sends a load). */
  newGeneration(g: number, classes: Record<string, Function>): Generation {
    this.current = new Generation(g, this, classes, this.options.callable);
    return this.current;
  }

  send(message: Message): void {
    if (!isQuiet(message)) this.activity++;
    this.channel.send(message);
  }

  /** Calls the other side's function `id` of generation `gen`, and waits for its answer. */
  call(gen: Generation, id: number, self: unknown, args: unknown[]): unknown {
    if (gen !== this.current) throw new PeerGone("this function belongs to an earlier load of the kata (an earlier spec file, or a process that has since been restarted)");
    const callId = this.nextCall++;
    const encoder = gen.codec.encoder();
    const message: Message = { t: "call", g: gen.g, id: callId, f: { $: "r", id }, this: encoder.slot(self), a: args.map((a) => encoder.slot(a)) };
    message.o = encoder.table();
    this.send(message);
    return this.answer(gen, this.waitFor(callId));
  }

  /** Sends a request and waits, synchronously, for the message that answers it. */
  request(message: Message): Message {
    const id = this.nextCall++;
    this.send({ ...message, id });
    return this.waitFor(id);
  }

  /** Sends a request; the answer comes as a promise (the event loop keeps running meanwhile). */
  requestAsync(message: Message): Promise<Message> {
    const id = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.asyncWaiters.set(id, { resolve, reject });
      try {
        this.send({ ...message, id });
      } catch (error) {
        this.asyncWaiters.delete(id);
        reject(error);
      }
    });
  }

  private readonly asyncWaiters = new Map<number, { resolve(m: Message): void; reject(e: unknown): void }>();

  /**
   * Waits, synchronously, until the other side has nothing left to do but wait (its microtasks
   * and what they started are done: it answers after its own setImmediate), serving what it asks
   * meanwhile. True when nothing but this exchange crossed while it waited.
   */
  quietNow(): boolean {
    const before = this.activity;
    try {
      this.request({ t: "quiet?" });
    } catch {
      return true; // gone: nothing more will come from it
    }
    return this.activity === before;
  }

  private waitFor(id: number): Message {
    this.depth++;
    if (this.depth === 1) this.options.onBlock?.(true);
    try {
      for (;;) {
        const early = this.early.get(id);
        if (early) {
          this.early.delete(id);
          return early;
        }
        let message: Message | undefined;
        try {
          message = this.channel.next() as Message | undefined;
          if (message === undefined) {
            this.channel.waitForMore();
            continue;
          }
        } catch (error) {
          if (error instanceof ChannelClosed) throw new PeerGone(error.message);
          this.channel.close(`the other side sent a line that is not JSON: ${(error as Error).message}`);
          throw new PeerGone(this.channel.closed!);
        }
        if (!isQuiet(message)) this.activity++;
        if (isAnswer(message) && message.id === id) return message;
        if (isAnswer(message) && typeof message.id === "number" && !this.asyncWaiters.has(message.id)) {
          this.early.set(message.id, message);
          continue;
        }
        this.dispatch(message);
      }
    } finally {
      this.depth--;
      if (this.depth === 0) {
        this.options.onBlock?.(false);
        this.channel.deliverSoon();
      }
    }
  }

  /** The value an answer carries, or what it throws. */
  answer(gen: Generation, message: Message): unknown {
    if (message.g !== gen.g) throw new PeerGone(typeof message.why === "string" ? message.why : "the answer belongs to another load of the kata");
    if (typeof message.why === "string") throw new PeerGone(message.why);
    let value: unknown;
    try {
      const decoder = gen.codec.decoder(message.o);
      value = decoder.slot(message.v ?? null);
      gen.codec.applyChanges(message.m, decoder);
      decoder.finish();
    } catch (error) {
      throw this.broken(error);
    }
    if (message.t === "err") throw value;
    return value;
  }

  private broken(error: unknown): Error {
    const why = `the other side sent what is not a value of the protocol: ${(error as Error).message}`;
    if (error instanceof WireError || error instanceof SyntaxError || error instanceof TypeError) this.channel.close(why);
    return new PeerGone(why);
  }

  // -------------------------------------------------------------------------------------------
  // What arrives
  // -------------------------------------------------------------------------------------------

  private handle(message: Message): void {
    if (!isQuiet(message)) this.activity++;
    this.dispatch(message);
  }

  private dispatch(message: Message): void {
    try {
      switch (message.t) {
        case "call":
          return this.serve(message);
        case "settle":
          return this.onSettle(message);
        case "abort":
          return this.onAbort(message);
        case "quiet?":
          // After everything this side has to do now: its microtasks, and what they start.
          setImmediate(() => {
            try {
              this.channel.send({ t: "quiet", id: message.id ?? null });
            } catch {
              // gone
            }
          });
          return;
        case "quiet":
          return; // an answer nobody waits for any more
        case "load":
          return this.onLoad(message);
        case "ret":
        case "err": {
          const waiter = this.asyncWaiters.get(Number(message.id));
          if (waiter) {
            this.asyncWaiters.delete(Number(message.id));
            waiter.resolve(message);
          }
          return;
        }
        default:
          this.channel.close(`the other side sent a message of no known kind: ${JSON.stringify(message.t)}`);
      }
    } catch (error) {
      if (error instanceof PeerGone || error instanceof ChannelClosed) return;
      this.channel.close(`a message could not be read: ${(error as Error).message}`);
    }
  }

  private serve(message: Message): void {
    const gen = this.current;
    if (message.g !== gen.g) {
      this.send({ t: "err", g: message.g ?? null, id: message.id ?? null, why: "a call from an earlier load of the kata (an earlier spec file)" });
      return;
    }
    const arrivals: Arrival[] = [];
    let fn: unknown;
    let self: unknown;
    let args: unknown[];
    try {
      const decoder = gen.codec.decoder(message.o, arrivals);
      fn = decoder.slot(message.f ?? null);
      self = decoder.slot(message.this ?? null);
      args = (Array.isArray(message.a) ? message.a : []).map((a) => decoder.slot(a));
      decoder.finish();
    } catch (error) {
      this.send({ t: "err", g: gen.g, id: message.id ?? null, why: `a call that is not one of the protocol: ${(error as Error).message}` });
      return;
    }
    let ok = true;
    let value: unknown;
    try {
      if (typeof fn !== "function") throw new TypeError("the called value is not a function");
      value = Reflect.apply(fn as (...a: unknown[]) => unknown, self, args);
    } catch (error) {
      ok = false;
      value = error;
    }
    this.reply(gen, message.id ?? null, ok, value, arrivals);
  }

  private reply(gen: Generation, id: Json, ok: boolean, value: unknown, arrivals: Arrival[]): void {
    const encoder = gen.codec.encoder(this.options.answersKeepIdentity);
    // Alone in its message (no argument of the call changed), the value may cross as JSON text.
    const alone = !gen.codec.changed(arrivals);
    const out: Message = { t: ok ? "ret" : "err", g: gen.g, id, v: alone ? encoder.wholeSlot(value) : encoder.slot(value) };
    const changes = gen.codec.changes(arrivals, encoder);
    if (changes.length > 0) out.m = changes;
    out.o = encoder.table();
    if (isPromise(value) && arrivals.length > 0) gen.promiseArrivals.set(value, arrivals);
    this.send(out);
  }

  private onSettle(message: Message): void {
    const gen = this.current;
    if (message.g !== gen.g) return;
    const entry = gen.promises.get(Number(message.p));
    if (!entry) return;
    gen.promises.delete(Number(message.p));
    const decoder = gen.codec.decoder(message.o);
    const value = decoder.slot(message.v ?? null);
    gen.codec.applyChanges(message.m, decoder);
    decoder.finish();
    if (message.ok === true) entry.resolve(value);
    else entry.reject(value);
  }

  private onAbort(message: Message): void {
    const gen = this.current;
    if (message.g !== gen.g) return;
    const controller = gen.controllers.get(Number(message.s));
    if (!controller || controller.signal.aborted) return;
    const decoder = gen.codec.decoder(message.o);
    const reason = decoder.slot(message.reason ?? null);
    decoder.finish();
    controller.abort(reason);
  }

  private onLoad(message: Message): void {
    const load = this.options.onLoad;
    const g = Number(message.g);
    const id = message.id ?? null;
    if (!load) {
      this.send({ t: "err", g, id, why: "this side loads no kata" });
      return;
    }
    const strings = (list: Json | undefined) => (Array.isArray(list) ? list.filter((c): c is string => typeof c === "string") : []);
    // The new generation starts now: whatever the previous one still does is stale from here.
    this.current = new Generation(g, this, {}, this.options.callable);
    const gen = this.current;
    load({ g, url: String(message.url), classes: strings(message.classes), methods: strings(message.methods) }).then(
      ({ exports, classes: found, realm }) => {
        if (this.current !== gen) return;
        this.current = new Generation(g, this, found, this.options.callable);
        const encoder = this.current.codec.encoder();
        const table: Message = {};
        for (const name of Object.keys(exports)) {
          const value = exports[name];
          table[name] = typeof value === "function" ? encoder.callableSlot(value) : encoder.slot(value);
        }
        const probes: Message = {};
        for (const name of Object.keys(realm)) probes[name] = encoder.callableSlot(realm[name]);
        this.send({ t: "ret", g, id, v: { $: "u" }, exports: table, realm: probes, o: encoder.table() });
      },
      (error: unknown) => {
        if (this.current !== gen) return;
        const encoder = gen.codec.encoder();
        const v = encoder.slot(error);
        this.send({ t: "err", g, id, v, o: encoder.table() });
      },
    );
  }

  // -------------------------------------------------------------------------------------------
  // What this side's live things do
  // -------------------------------------------------------------------------------------------

  remoteFunction(gen: Generation, id: number, name: string, length: number): (...args: unknown[]) => unknown {
    const peer = this;
    const fn = function (this: unknown, ...args: unknown[]): unknown {
      return peer.call(gen, id, this, args);
    };
    Object.defineProperty(fn, "name", { value: name });
    Object.defineProperty(fn, "length", { value: length });
    return fn;
  }

  settled(gen: Generation, id: number, ok: boolean, value: unknown, promise: Promise<unknown>): void {
    if (gen !== this.current || this.channel.closed !== undefined) return;
    const encoder = gen.codec.encoder(this.options.answersKeepIdentity);
    const message: Message = { t: "settle", g: gen.g, p: id, ok };
    const arrivals = gen.promiseArrivals.get(promise);
    const alone = !arrivals || !gen.codec.changed(arrivals);
    try {
      message.v = alone ? encoder.wholeSlot(value) : encoder.slot(value);
    } catch (error) {
      message.ok = false;
      message.v = encoder.slot(new Error(`its value could not be sent: ${(error as Error).message}`));
    }
    if (arrivals) {
      const changes = gen.codec.changes(arrivals, encoder);
      if (changes.length > 0) message.m = changes;
    }
    message.o = encoder.table();
    try {
      this.send(message);
    } catch {
      // gone
    }
  }

  aborted(gen: Generation, id: number, reason: unknown): void {
    if (gen !== this.current || this.channel.closed !== undefined) return;
    const encoder = gen.codec.encoder();
    const message: Message = { t: "abort", g: gen.g, s: id, reason: encoder.slot(reason) };
    message.o = encoder.table();
    try {
      this.send(message);
    } catch {
      // gone
    }
  }

  private closed(why: string): void {
    for (const waiter of this.asyncWaiters.values()) waiter.reject(new PeerGone(why));
    this.asyncWaiters.clear();
    for (const entry of this.current.promises.values()) entry.reject(new PeerGone(why));
    this.current.promises.clear();
    this.options.onClose(why);
  }
}

/** The quiet handshake is not activity: it is how activity is looked for. */
const isQuiet = (message: Message) => message.t === "quiet?" || message.t === "quiet";
/** What answers a request: a call's value or throw, or the quiet handshake's answer. */
const isAnswer = (message: Message) => message.t === "ret" || message.t === "err" || message.t === "quiet";

function isPromise(value: unknown): value is Promise<unknown> {
  try {
    return value instanceof Promise;
  } catch {
    return false;
  }
}

// A fake clock for kata 3: the loop's timeouts, backoff and slow tools all wait on it, so a spec
// that "waits" 30 seconds finishes in microseconds.
//
// By default it advances itself: whenever the program has nothing left to do but wait (no
// microtask pending; in a graded run, in neither the specs' process nor the kata's sandbox, and no
// message on its way between them: spec/support/realm.ts), it jumps to the earliest pending timer
// and fires it. A step of five 100 ms tools therefore ends at exactly t = 100 of fake time. With
// `autoAdvance: false` time only moves when the spec calls `advance(ms)`.
import type { Clock } from "@impl/03-agent-loop";
import { afterIdle } from "../realm.ts";

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class FakeClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: Timer[] = [];
  private scheduled = false;
  private readonly autoAdvance: boolean;

  constructor(options: { start?: number; autoAdvance?: boolean } = {}) {
    this.time = options.start ?? 0;
    this.autoAdvance = options.autoAdvance ?? true;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, resolve: () => {} };
      const onAbort = () => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      timer.resolve = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
      this.kick();
    });
  }

  /** How many sleeps are waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next.at);
    }
    this.time = target;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    return best;
  }

  private fire(at: number): void {
    this.time = Math.max(this.time, at);
    const due = this.timers.filter((t) => t.at <= at).sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.timers = this.timers.filter((t) => t.at > at);
    for (const t of due) t.resolve();
  }

  // "The program is idle but waiting": in one process, setImmediate, which runs once every pending
  // microtask has run.
  private kick(): void {
    if (!this.autoAdvance || this.scheduled) return;
    this.scheduled = true;
    afterIdle(() => {
      this.scheduled = false;
      const next = this.earliest();
      if (!next) return;
      this.fire(next.at);
      if (this.timers.length > 0) this.kick();
    });
  }
}

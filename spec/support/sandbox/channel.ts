// One end of the pipe pair between the specs' process and a sandbox: JSON messages, one per line.
//
// Each side reads the same incoming pipe two ways. While its event loop runs, the pipe is read as
// any stream is (`net.Socket` on a non-blocking descriptor), so promises, timers and the graded
// code's asynchronous work go on. While it waits for the answer to a synchronous call (kata 1's
// `parseToolCalls`, a tool's `run` called from inside `dispatch`, `clock.now()`), it reads a second,
// blocking descriptor of the same pipe, and the thread sleeps until the answer comes. The event
// loop does not run while the thread waits, so the two ways never read at once, and whatever one
// way read and did not use stays in the one buffer both share.
//
// Writes never block: when the other side is itself busy writing and both pipes are full, the
// writer reads what is waiting for it into the buffer, and tries again.
import { readSync, writeSync } from "node:fs";
import { Socket } from "node:net";
import type { Json } from "./wire.ts";

export interface ChannelFds {
  /** Non-blocking: read by the event loop. */
  asyncRead: number;
  /** Blocking, the same pipe: read while a synchronous call waits for its answer. */
  syncRead: number;
  /** Non-blocking. */
  write: number;
}

/** The largest message either side takes: far above any value a spec passes, far below what hurts. */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export class ChannelClosed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChannelClosed";
  }
}

const NEWLINE = 0x0a;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const pause = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

export class Channel {
  /** Bytes read and not yet taken as messages, oldest first; only the last may lack its newline. */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** How many of the first chunks are known to hold no newline. */
  private searched = 0;
  private socket: Socket | undefined;
  private closedWhy: string | undefined;
  private readonly scratch = Buffer.allocUnsafe(256 * 1024);

  constructor(
    private readonly fds: ChannelFds,
    /** Called for every message that arrives while the event loop runs. */
    private readonly onMessage: (message: Json) => void,
    private readonly onClose: (why: string) => void,
  ) {}

  /**
   * Starts reading in the event loop. `keepAlive` false: the channel alone does not keep the
   * process running. `idle`, when given, says that this process has nothing pending but the
   * channel (no timer, no I/O): it then waits for the next message in a blocking read, which
   * wakes far sooner than the event loop's poll, and goes back to the event loop after each.
   */
  start(keepAlive: boolean, idle?: () => boolean): void {
    const socket = new Socket({ fd: this.fds.asyncRead, readable: true, writable: false });
    this.socket = socket;
    if (!keepAlive) socket.unref();
    let armed = false;
    // While the process has nothing pending but the channel, the next message is waited for in a
    // blocking read; once it has something else (a timer), the event loop's poll takes over until
    // a message comes again. Never a loop of immediates: that would spin while a timer waits.
    const waitWhileIdle = () => {
      armed = false;
      if (this.closedWhy !== undefined || !idle) return;
      if (this.buffered === 0) {
        if (!idle()) return;
        try {
          this.waitForMore();
        } catch {
          return;
        }
      }
      this.deliver();
      arm();
    };
    // The event loop first: what a message started (microtasks, timers) runs there.
    const arm = () => {
      if (!idle || armed) return;
      armed = true;
      setImmediate(waitWhileIdle);
    };
    socket.on("data", (chunk: Buffer) => {
      this.push(chunk);
      this.deliver();
      arm();
    });
    arm();
    socket.on("error", (error) => this.close(`the channel failed: ${error.message}`));
    socket.on("end", () => this.close("the other side closed the channel"));
  }

  get closed(): string | undefined {
    return this.closedWhy;
  }

  close(why: string): void {
    if (this.closedWhy !== undefined) return;
    this.closedWhy = why;
    this.socket?.destroy();
    this.onClose(why);
  }

  send(message: object): void {
    if (this.closedWhy !== undefined) throw new ChannelClosed(this.closedWhy);
    const bytes = Buffer.from(JSON.stringify(message) + "\n", "utf8");
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fds.write, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EAGAIN" || code === "EWOULDBLOCK") {
          // The pipe is full: the other side may be writing to us at this very moment.
          if (!this.drainNow()) pause(0.2);
        } else if (code === "EPIPE") {
          this.close("the other side is gone");
          throw new ChannelClosed(this.closedWhy!);
        } else throw error;
      }
    }
  }

  /** The next whole message already read, if any. */
  next(): Json | undefined {
    if (this.buffered === 0) return undefined;
    // A long message comes in many chunks: each is searched for its newline once.
    for (let i = this.searched; i < this.chunks.length; i++) {
      const at = this.chunks[i].indexOf(NEWLINE);
      if (at >= 0) {
        this.searched = 0;
        return JSON.parse(this.take(i, at)) as Json;
      }
    }
    this.searched = this.chunks.length;
    return undefined;
  }

  /** Blocks until more bytes arrive; throws ChannelClosed when the other side has gone. */
  waitForMore(): void {
    for (;;) {
      if (this.closedWhy !== undefined) throw new ChannelClosed(this.closedWhy);
      let read: number;
      try {
        read = readSync(this.fds.syncRead, this.scratch, 0, this.scratch.length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EINTR" || code === "EAGAIN") continue;
        this.close(`the channel failed: ${(error as Error).message}`);
        throw new ChannelClosed(this.closedWhy!);
      }
      if (read === 0) {
        this.close("the other side closed the channel");
        throw new ChannelClosed(this.closedWhy!);
      }
      this.push(Buffer.from(this.scratch.subarray(0, read)));
      return;
    }
  }

  private deliverScheduled = false;

  /**
   * After a synchronous wait: what it read beyond its answer (a settlement that came right after
   * it, say) is taken in the event loop's next turn, as if it had arrived then.
   */
  deliverSoon(): void {
    if (this.buffered === 0 || this.deliverScheduled) return;
    this.deliverScheduled = true;
    setImmediate(() => {
      this.deliverScheduled = false;
      this.deliver();
    });
  }

  /** Takes the messages read so far, in the event loop. */
  private deliver(): void {
    for (;;) {
      let message: Json | undefined;
      try {
        message = this.next();
      } catch (error) {
        this.close(`the other side sent a line that is not JSON: ${(error as Error).message}`);
        return;
      }
      if (message === undefined) return;
      this.onMessage(message);
    }
  }

  /** Reads what is waiting without blocking; false when nothing was. */
  private drainNow(): boolean {
    let any = false;
    for (;;) {
      let read: number;
      try {
        read = readSync(this.fds.asyncRead, this.scratch, 0, this.scratch.length, null);
      } catch {
        return any;
      }
      if (read <= 0) return any;
      any = true;
      this.push(Buffer.from(this.scratch.subarray(0, read)));
    }
  }

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered > MAX_MESSAGE_BYTES && !this.chunks.some((c) => c.includes(NEWLINE))) {
      this.close(`a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`);
    }
  }

  /** Removes and returns the text up to (not including) the newline at `at` of chunk `index`. */
  private take(index: number, at: number): string {
    const parts = this.chunks.slice(0, index);
    const last = this.chunks[index];
    parts.push(last.subarray(0, at));
    const rest = last.subarray(at + 1);
    this.chunks = rest.length > 0 ? [rest, ...this.chunks.slice(index + 1)] : this.chunks.slice(index + 1);
    const taken = parts.reduce((n, p) => n + p.length, 0);
    this.buffered -= taken + 1;
    return parts.length === 1 ? parts[0].toString("utf8") : Buffer.concat(parts, taken).toString("utf8");
  }
}

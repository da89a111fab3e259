// Drives `npm run watch` from outside, the way a candidate uses it: start it on a folder, save a
// file, read what it prints. The benchmark times a save to its answers with it, and the watch
// test checks what the answers say.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

/** One answer: the "k of n passing" line and the lines under it. */
export interface WatchAnswer {
  /** Milliseconds from the save (or from the start, for the first answer) to the line. */
  ms: number;
  passing: number;
  total: number;
  /** Slow tests the quick run left to the full run that follows; 0 in a full answer. */
  stillRunning: number;
  /** The block as printed: the passing line, problems, next failing test, its message. */
  text: string;
}

/** An answer starts with a time, the kata and "k of n passing" (see report() in scripts/watch.ts). */
const ANSWER = /^\S+(?: [AP]M)?\s+\d\d-[a-z-]+: (\d+) of (\d+) passing(?:, (\d+) slow tests? still running)?/;

export class WatchSession {
  private readonly child: ChildProcess;
  private readonly answers: WatchAnswer[] = [];
  private readonly waiters: Array<() => void> = [];
  private buffer = "";
  private since = performance.now();
  private exited = false;
  output = "";

  /** `args`: more of watch's options, `--level 1` for example. */
  constructor(kataNumber: number, implRoot: string, env: Record<string, string> = {}, args: string[] = []) {
    this.child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "scripts", "watch.ts"), String(kataNumber), "--impl", implRoot, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => this.read(chunk));
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.output += chunk));
    this.child.on("exit", () => {
      this.exited = true;
      this.wake();
    });
  }

  private read(chunk: string): void {
    this.output += chunk;
    // The clock stops when the "k of n passing" line arrives, not when the block under it ends.
    if (this.lineAt === undefined && ANSWER.test((this.buffer + chunk).split("\n\n").pop()!.trimStart())) this.lineAt = performance.now();
    this.buffer += chunk;
    // An answer is complete at the blank line that starts the next one, or when the output pauses.
    const blocks = this.buffer.split("\n\n");
    this.buffer = blocks.pop() ?? "";
    for (const block of blocks) this.take(block);
    clearTimeout(this.flush);
    this.flush = setTimeout(() => {
      if (this.buffer.trim() !== "") this.take(this.buffer);
      this.buffer = "";
    }, 50);
  }

  private flush: NodeJS.Timeout | undefined;
  /** When the passing line of the answer being read arrived. */
  private lineAt: number | undefined;

  private take(block: string): void {
    const text = block.trim();
    const match = ANSWER.exec(text);
    if (!match) return;
    const at = this.lineAt ?? performance.now();
    this.lineAt = undefined;
    this.answers.push({
      ms: at - this.since,
      passing: Number(match[1]),
      total: Number(match[2]),
      stillRunning: Number(match[3] ?? 0),
      text,
    });
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits for the next answer after those already taken; rejects after `timeoutMs`. */
  async next(timeoutMs: number): Promise<WatchAnswer> {
    const deadline = performance.now() + timeoutMs;
    while (this.answers.length === 0) {
      if (this.exited) throw new Error(`watch exited:\n${this.output}`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no answer from watch in ${timeoutMs} ms:\n${this.output}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.answers.shift()!;
  }

  /** Waits for answers until one has no slow test still running: the answers to one save. */
  async untilFull(timeoutMs: number): Promise<WatchAnswer[]> {
    const got: WatchAnswer[] = [];
    do got.push(await this.next(timeoutMs));
    while (got.at(-1)!.stillRunning > 0);
    return got;
  }

  /** Writes `content` to `file` and times the answers from this moment. */
  save(file: string, content: string): void {
    this.answers.length = 0;
    this.since = performance.now();
    writeFileSync(file, content);
  }

  stop(): void {
    // SIGINT: watch's exit handler kills its warm runner's process group too.
    if (!this.exited) this.child.kill("SIGINT");
  }
}

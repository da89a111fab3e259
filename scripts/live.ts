// npm run live -- --kata 3 --base-url http://127.0.0.1:11434/v1 --model qwen2.5:7b   (or --kata 1, --kata 4)
// Connects the live command (scripts/lib/live/main.ts) to this process: stdout for the
// transcript, stderr for everything else, the terminal for approvals, Ctrl-C for a clean stop.
import { createInterface } from "node:readline";
import { isEntry } from "./lib/cli-main.ts";
import { EXIT, main as live, type LiveIO } from "./lib/live/main.ts";

/** This process's streams: the transcript on stdout, the rest on stderr. */
const streams = (): LiveIO => ({
  out: (line) => process.stdout.write(line + "\n"),
  write: (text) => process.stdout.write(text),
  err: (line) => process.stderr.write(line + "\n"),
  env: process.env,
  cwd: process.cwd(),
});

/** The command without a terminal to ask or a Ctrl-C to handle (a test calls it in its own process). */
export const main = (argv: string[]): Promise<number> => live(argv, streams());

if (isEntry(import.meta.url)) {
  const interrupt = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    // The first Ctrl-C stops the run cleanly (the recording keeps what it has); a second one
    // means "now": the recording is already on disk, line by line.
    if (interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write("\nStopping (Ctrl-C again to quit at once)...\n");
    interrupt.abort();
  };
  process.on("SIGINT", onSigint);
  // A loop that stops waiting for an aborted model call may leave its rejection unhandled: after a
  // Ctrl-C that is expected, and in any case it must not crash the command while it reports.
  process.on("unhandledRejection", (reason) => {
    if (interrupt.signal.aborted) return;
    process.stderr.write(`live: note: an unhandled rejection in the run: ${(reason as Error)?.message ?? String(reason)}\n`);
  });

  const ask = (question: string, signal: AbortSignal): Promise<string> =>
    new Promise((resolve, reject) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
      const close = () => {
        rl.close();
        reject(new Error("interrupted"));
      };
      // While the prompt reads the terminal, Ctrl-C reaches readline, not the process.
      rl.on("SIGINT", () => {
        onSigint();
        close();
      });
      signal.addEventListener("abort", close, { once: true });
      rl.question(question, (answer) => {
        signal.removeEventListener("abort", close);
        rl.close();
        resolve(answer);
      });
    });

  const io: LiveIO = {
    ...streams(),
    ask: process.stdin.isTTY ? ask : undefined,
    interrupt: interrupt.signal,
  };

  live(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
      process.off("SIGINT", onSigint);
    },
    (error) => {
      process.stderr.write(`live: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

// Runs one of our scripts the cheapest way that is still the script: through its exported
// main(argv) (scripts/lib/cli-main.ts) in the test's own process, or, for a script without one
// (grade, self-test), as a command in one node process with tsx's loader (tsx's own command
// would start a second node for it).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { vi } from "vitest";
import { PROJECT_ROOT } from "../../lib/impl-root.ts";

export interface Outcome {
  code: number | null;
  out: string;
}

type Main = (argv: string[]) => number | Promise<number>;

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Through main(argv), in this process: what it prints on the console or on either stream, and the
 * exit code it returns. `script`: a path from the project root, "scripts/watch.ts". Calls must not
 * overlap: they share the console.
 */
export async function runMain(script: string, argv: string[]): Promise<Outcome> {
  const { main } = (await import(pathToFileURL(join(PROJECT_ROOT, script)).href)) as { main: Main };
  let out = "";
  const keep = (...parts: unknown[]) => void (out += parts.map(String).join(" ") + "\n");
  const write = (chunk: unknown) => ((out += String(chunk)), true);
  const spies = [
    ...(["log", "error", "warn", "info"] as const).map((method) => vi.spyOn(console, method).mockImplementation(keep)),
    vi.spyOn(process.stdout, "write").mockImplementation(write),
    vi.spyOn(process.stderr, "write").mockImplementation(write),
  ];
  // A command may take Ctrl-C for the length of its run (grade:round stops its grades on it): here
  // the run ends with the call, and its handlers with it.
  const listening = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return { code: await main(argv), out };
  } catch (error) {
    // What the command line would print for it: the stack of an error its main does not handle.
    return { code: 1, out: out + String((error as Error).stack ?? error) };
  } finally {
    for (const spy of spies) spy.mockRestore();
    for (const signal of SIGNALS) for (const listener of process.listeners(signal)) if (!listening.get(signal)!.has(listener)) process.off(signal, listener);
  }
}

export interface CommandOutcome extends Outcome {
  stdout: string;
  stderr: string;
}

/** As a command of its own, from the project root, without colours; `out` is stdout and stderr as they came. */
export function runCommand(script: string, argv: string[], env: Record<string, string> = {}): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...argv], { cwd: PROJECT_ROOT, env: { ...process.env, NO_COLOR: "1", ...env } });
    const outcome = { code: null as number | null, out: "", stdout: "", stderr: "" };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => ((outcome.stdout += chunk), (outcome.out += chunk)));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => ((outcome.stderr += chunk), (outcome.out += chunk)));
    child.on("close", (code) => resolve({ ...outcome, code }));
  });
}

// The shape every script of ours has: a `main(argv)` that returns the exit code (a usage error is
// said in one line on stderr and is exit code 2), and a command-line entry that only calls it. A
// test imports the script and calls main in its own process instead of starting one per case.
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { UsageError } from "./cli-args.ts";

/** Runs a command's body; a UsageError becomes "name: message" (and `more`) on stderr and exit code 2. */
export async function usageErrorsAsExit2(name: string, body: () => number | Promise<number>, more = ""): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${name}: ${error.message}${more}`);
    return 2;
  }
}

/** True when the module at `moduleUrl` (its import.meta.url) is the script node was started with. */
export function isEntry(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return realpathSync(started) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * A script's command-line entry: main on the process's arguments, then exit with its code. An
 * error main does not handle is the script's own failure: its stack, and exit code `failureCode`.
 */
export function runAsCommand(name: string, main: (argv: string[]) => Promise<number>, failureCode = 3): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`${name}: internal error: ${(error as Error).stack ?? error}`);
      process.exit(failureCode);
    },
  );
}

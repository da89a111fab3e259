// A busy process on every core: the load that two self-test checks run under on purpose (the
// references' grade, compare's self-comparison).
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";

/** A spinner stops by itself after this long, should its check never get to stop it. */
const SPIN_LIFETIME_MS = 180_000;

function startSpinner(): ChildProcess {
  // A plain spin: it holds a core for as long as it lives and needs no memory.
  const code = `const end = Date.now() + ${SPIN_LIFETIME_MS}; while (Date.now() < end) {}`;
  const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
  child.on("error", () => {}); // a spawn failure shows as a spinner that is not alive (below)
  return child;
}

const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null || child.pid === undefined;

export interface BusyCores {
  /** How many spinners there are, and how many stopped before their time (the load was not there throughout). */
  state(): { spinners: number; stopped: number };
  stop(): void;
}

export function startBusyCores(): BusyCores {
  const spinners = Array.from({ length: availableParallelism() }, startSpinner);
  return {
    state: () => ({ spinners: spinners.length, stopped: spinners.filter(gone).length }),
    stop: () => {
      for (const child of spinners) if (!gone(child)) child.kill("SIGKILL");
    },
  };
}

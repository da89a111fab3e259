// The real clock. The loop must do every wait through the Clock it is given (options.clock),
// never through setTimeout directly: that is what lets the specs run on fake time.
import type { Clock } from "./types.ts";

export const systemClock: Clock = {
  /** TODO: Date.now(). */
  now() {
    throw new Error("not implemented");
  },
  /** TODO: resolve after `ms` with setTimeout; reject with signal.reason as soon as `signal` aborts (clear the timer). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    throw new Error("not implemented");
  },
};

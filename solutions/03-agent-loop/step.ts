// One step's calls run concurrently, at most `concurrency` at a time. They may finish in any
// order; the results come back in the order the model asked for them, because that is the order
// the history (and every provider's API) expects.
import { runCall, type CallEnv, type CallResult } from "./call.ts";
import type { ToolCall } from "./types.ts";

export async function runStep(calls: ToolCall[], env: CallEnv, concurrency: number): Promise<CallResult[]> {
  // Each result is written into its call's slot, whatever order the calls settle in.
  const results: CallResult[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      results[index] = await runCall(calls[index], env);
    }
  };
  const width = Math.max(1, Math.min(concurrency, calls.length));
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

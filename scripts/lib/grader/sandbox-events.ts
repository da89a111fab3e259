// What the sandboxes' supervisor reported during a run (spec/support/sandbox/client.ts writes one
// file per test process): a sandbox that ended, and why; how much it printed.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readJsonLines } from "./jsonl.ts";

export interface SandboxEvent {
  kata: string;
  /** exit: a sandbox ended (why); output: how much it had printed so far. */
  event: "exit" | "output";
  why: string;
  outputBytes: number;
  test?: string;
}

/** Every event of a run's report folder. */
export function readEvents(dir: string): SandboxEvent[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => readJsonLines<SandboxEvent>(join(dir, name)));
}


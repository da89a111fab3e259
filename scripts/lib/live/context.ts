// What a kata runner gets from main: the client, the settings, the approval gate, the printers.
import type { ChatClient } from "./client.ts";
import type { LiveSettings } from "./recording.ts";

export interface RunContext {
  client: ChatClient;
  settings: LiveSettings;
  /** The folder read_file serves (absolute). */
  sandbox: string;
  runId: string;
  /** Aborted by Ctrl-C (or a recorded Ctrl-C on replay): the run stops cleanly. */
  signal: AbortSignal;
  /** Asks whether a dangerous tool may run (terminal, --yes, or the recording); prints the answer. */
  approve(name: string, args: unknown, shown: string): Promise<boolean>;
  /** A transcript line (stdout). */
  out(line: string): void;
  /** Kata 4: a piece of the transcript without a line end, for text shown as it streams; absent: whole lines only. */
  write?: (text: string) => void;
  /** A note for the person at the terminal (stderr): not part of the transcript. */
  note(line: string): void;
  timings: boolean;
}

export interface RunOutcome {
  status: string;
  steps: number;
  usage: { input_tokens: number; output_tokens: number };
}

export const DEFAULT_PROMPT =
  "What is the weather in Beijing today, and what is (17.5 * 4) + 3? " +
  "Then read notes.txt from the sandbox and tell me in one sentence what it says.";

// Progressive hints: parsed from a kata's HINTS.md, with which ones a candidate has seen.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "./impl-root.ts";

/** Which hints a candidate has seen, per kata; kept out of git by .gitignore. */
// Where the hints shown so far are counted; a test may point it elsewhere, to start from a known count.
const STATE_FILE = process.env.TUK_HINT_STATE ?? join(PROJECT_ROOT, ".hint-state.json");

export interface Hint {
  title: string;
  body: string;
}

/** Sections "## Hint 1: title" (or "## 提示 1：title") of a HINTS file, in order. */
export function parseHints(markdown: string): Hint[] {
  const hints: Hint[] = [];
  for (const block of markdown.split(/^## /m).slice(1)) {
    const newline = block.indexOf("\n");
    const heading = (newline === -1 ? block : block.slice(0, newline)).trim();
    hints.push({ title: heading, body: newline === -1 ? "" : block.slice(newline + 1).trim() });
  }
  return hints;
}

export function readHintState(): Record<string, number> {
  if (!existsSync(STATE_FILE)) return {};
  try {
    return JSON.parse(readFileSync(STATE_FILE, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

export function writeHintState(state: Record<string, number>): void {
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + "\n");
}

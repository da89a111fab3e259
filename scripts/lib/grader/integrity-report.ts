// What every report (terminal, results.json, JUnit, HTML) says about a kata's integrity, decided
// once here so that the four never disagree on a kata's status or on the words they use.
import type { Integrity } from "./integrity.ts";
import type { KataResult } from "./kata-result.ts";

/** From best to worst: a report shows the worst status of its katas. */
export const INTEGRITY_STATUSES = ["ok", "notes", "refused"] as const;
export type IntegrityStatus = (typeof INTEGRITY_STATUSES)[number];

export function integrityStatus(integrity: Integrity | undefined): IntegrityStatus {
  if (!integrity) return "ok";
  if (integrity.refused.length > 0) return "refused";
  return integrity.notes.length > 0 ? "notes" : "ok";
}

export function worstStatus(runs: KataResult[]): IntegrityStatus {
  const rank = (status: IntegrityStatus) => INTEGRITY_STATUSES.indexOf(status);
  return runs.map((run) => integrityStatus(run.integrity)).reduce((worst, s) => (rank(s) > rank(worst) ? s : worst), "ok" as IntegrityStatus);
}

/** The runs scored 0 because the grader refused an import. */
export function untrustedRuns(runs: KataResult[]): KataResult[] {
  return runs.filter((run) => integrityStatus(run.integrity) === "refused");
}

/** One line per finding, the kind first: "refused: ...", "note: ...". */
export function integrityLines(integrity: Integrity | undefined): string[] {
  if (!integrity) return [];
  return [...integrity.refused.map((line) => `refused: ${line}`), ...integrity.notes.map((line) => `note: ${line}`)];
}

/** "01-regex-dispatch scored 0: the grader refused an import ...": one sentence per refused kata. */
export function untrustedSentence(run: KataResult): string {
  return `${run.kata.id} scored 0: the grader refused an import (a kata may import only its own files)`;
}

/** The first `max` notes and how many more there are. */
export function firstNotes(notes: string[], max: number): { shown: string[]; more: number } {
  const shown = notes.slice(0, max);
  return { shown, more: notes.length - shown.length };
}

/** How the graded code was confined in this grade (the same for every kata that ran), or undefined when none ran. */
export function sandboxOf(runs: KataResult[]): { level: string; words: string } | undefined {
  return runs.find((run) => run.sandbox)?.sandbox;
}

/** The one line every report gives it. */
export const sandboxLine = (sandbox: { words: string }): string => `Graded code ran in a sandbox: ${sandbox.words}.`;

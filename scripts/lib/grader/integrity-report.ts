// What every report (terminal, results.json, JUnit, HTML) says about a kata's integrity, decided
// once here so that the four never disagree on a kata's status or on the words they use.
import type { Integrity } from "./integrity.ts";
import type { KataRun } from "./run-kata.ts";

/** From best to worst: a report shows the worst status of its katas. */
export const INTEGRITY_STATUSES = ["ok", "notes", "refused", "tampered"] as const;
export type IntegrityStatus = (typeof INTEGRITY_STATUSES)[number];

/**
 * Tampered outranks refused: run-kata.ts gives the tampering as the reason a kata scored 0 when it
 * saw both, and a forged verdict is the graver finding for an interviewer.
 */
export function integrityStatus(integrity: Integrity | undefined): IntegrityStatus {
  if (!integrity) return "ok";
  if (integrity.tampered.length > 0) return "tampered";
  if (integrity.refused.length > 0) return "refused";
  return integrity.notes.length > 0 ? "notes" : "ok";
}

export function worstStatus(runs: KataRun[]): IntegrityStatus {
  const rank = (status: IntegrityStatus) => INTEGRITY_STATUSES.indexOf(status);
  return runs.map((run) => integrityStatus(run.integrity)).reduce((worst, s) => (rank(s) > rank(worst) ? s : worst), "ok" as IntegrityStatus);
}

/** The runs scored 0 because the grader refused an import or saw a forgery. */
export function untrustedRuns(runs: KataRun[]): KataRun[] {
  return runs.filter((run) => ["refused", "tampered"].includes(integrityStatus(run.integrity)));
}

/** One line per finding, the kind first: "tampered: ...", "refused: ...", "note: ...". */
export function integrityLines(integrity: Integrity | undefined): string[] {
  if (!integrity) return [];
  return [
    ...integrity.tampered.map((line) => `tampered: ${line}`),
    ...integrity.refused.map((line) => `refused: ${line}`),
    ...integrity.notes.map((line) => `note: ${line}`),
  ];
}

/** "01-regex-dispatch scored 0: the grader saw its test run tampered with": one sentence per untrusted kata. */
export function untrustedSentence(run: KataRun): string {
  return integrityStatus(run.integrity) === "tampered"
    ? `${run.kata.id} scored 0: the grader saw its test run tampered with`
    : `${run.kata.id} scored 0: the grader refused an import (a kata may import only its own files)`;
}

/**
 * The first `max` notes and how many more there are. integrity.ts already ends a long list with
 * its own "... and N more", which is counted here rather than shown as a note.
 */
export function firstNotes(notes: string[], max: number): { shown: string[]; more: number } {
  const tail = /^\.\.\. and (\d+) more$/.exec(notes.at(-1) ?? "");
  const real = tail ? notes.slice(0, -1) : notes;
  const shown = real.slice(0, max);
  return { shown, more: real.length - shown.length + (tail ? Number(tail[1]) : 0) };
}

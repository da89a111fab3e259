// What the grader tells an interviewer about the graded code beside its score:
// - refused: an import the kata rule does not allow ("a kata imports only its own files"); the
//   kata scores 0 and the report names the import;
// - notes: what the grader left out of the kata's folder (a symbolic link, a node_modules folder);
//   a note changes no score.
// Nothing here judges honesty: the graded code runs confined in a process of its own, and cannot
// reach its grade (spec/support/sandbox/confinement.ts); what remains for a human reader is in the
// interviewer guide's threat model.

export interface Integrity {
  refused: string[];
  notes: string[];
}

export const emptyIntegrity = (): Integrity => ({ refused: [], notes: [] });

/** A kata whose score is 0 by the kata rule. */
export const untrusted = (integrity: Integrity | undefined): boolean => !!integrity && integrity.refused.length > 0;

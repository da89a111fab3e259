// Type-level equality, used by each kata's `spec/NN-name/api-parity.ts` to make `tsc` fail
// when a stub's public API and its reference's (or its bridge's) drift apart.
export type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;

/**
 * A module's exports, without telling `export const` from `export function`: a bridge exports
 * each of the kata's functions as a const (the kata's own, called in its sandbox).
 */
export type Exports<T> = { -readonly [K in keyof T]: T[K] };

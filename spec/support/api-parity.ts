// Type-level equality, used by each kata's `spec/NN-name/api-parity.ts` to make `tsc` fail
// when a stub's public API and its reference's drift apart.
export type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `T` is `true`. */
export type Assert<T extends true> = T;

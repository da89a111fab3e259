// Reading the fields of an event that may be anything: JSON from a server we do not control.
// (Not part of the public API: a suggested place.)
export { isObject } from "./arguments.ts";

/** A field that is present but of the wrong type: the fragment that holds it cannot be read. */
export const WRONG = Symbol("wrong type");

/**
 * TODO: a string field of a call fragment: undefined when it is absent, null or "" (servers send
 * all three on fragments that do not carry it), WRONG when it is something else.
 */
export function stringField(value: unknown): string | undefined | typeof WRONG {
  throw new Error("not implemented");
}

/** TODO: an index that can name a call or a block: an integer, 0 or more (10^9 too). */
export function isIndex(value: unknown): value is number {
  throw new Error("not implemented");
}

/** What an event reader does with one event (parsed JSON, or the string "[DONE]"). */
export type EventReader = (event: unknown) => void;

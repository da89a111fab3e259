// Reading the fields of an event that may be anything: JSON from a server we do not control.
export { isObject } from "./arguments.ts";

/** A field that is present but of the wrong type: the fragment that holds it cannot be read. */
export const WRONG = Symbol("wrong type");

/**
 * A string field of a call fragment: undefined when it is absent, null or "" (servers send all
 * three on fragments that do not carry it), WRONG when it is something else.
 */
export function stringField(value: unknown): string | undefined | typeof WRONG {
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "string" ? value : WRONG;
}

/** An index that can name a call or a block: an integer, 0 or more. */
export function isIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** What an event reader does with one event (parsed JSON, or the string "[DONE]"). */
export type EventReader = (event: unknown) => void;

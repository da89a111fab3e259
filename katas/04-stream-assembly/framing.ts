// The raw stream: text cut anywhere, turned back into events (README, task 5).
// (Not part of the public API: a suggested place.)

/** Where the events of the raw stream go. */
export interface FrameSink {
  /** An event's data, parsed: what push() takes ("[DONE]" as the string). */
  event(event: unknown): void;
  /** An SSE event named `error`, whatever its data holds. */
  serverError(message: string): void;
  /** Data that is not JSON. */
  unreadable(message: string): void;
}

export interface Framer {
  feed(text: string): void;
  /** The connection closed: what is pending is read, if it can be. */
  end(): void;
}

/**
 * TODO: server-sent events from text chunks cut anywhere: lines ended by \r\n, \n or \r (also a
 * \r\n cut between two chunks), a byte order mark at the very start dropped, comments, `data:`
 * lines joined with \n, `event:` names, a blank line dispatching. Build each line across chunks
 * and look at each chunk's characters once: never split the whole buffer again per chunk.
 */
export function sseFramer(sink: FrameSink): Framer {
  throw new Error("not implemented");
}

/** TODO: newline-delimited JSON on the same lines: each line that is not blank is one event. */
export function ndjsonFramer(sink: FrameSink): Framer {
  throw new Error("not implemented");
}

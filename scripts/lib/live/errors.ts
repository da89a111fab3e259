// Every failure live mode can explain gets one of these kinds and a message that says what to do.
export type LiveErrorKind =
  | "unreachable" // nothing answers at the base URL
  | "timeout" // no reply within --timeout
  | "interrupted" // Ctrl-C
  | "unauthorized" // 401 / 403
  | "not_found" // 404: wrong model name or wrong base URL
  | "http" // any other non-2xx status
  | "malformed" // the reply is not JSON, or not a chat completion
  | "replay" // the recording ran out or the conversation left it
  | "implementation"; // the chosen kata implementation failed (not implemented, threw)

export class LiveError extends Error {
  override name = "LiveError";
  constructor(
    readonly kind: LiveErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** The first `max` characters of a text, on one line, for quoting a server's reply. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

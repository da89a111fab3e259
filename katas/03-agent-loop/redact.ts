// Keep secrets, personal data and stack traces out of everything the model or the trace sees.

/**
 * TODO: replace, in this order, API-key-like tokens by "[secret]" ("Bearer <token>" by
 * "Bearer [secret]"), e-mails by "[email]", 18-digit ID numbers by "[id_number]", and phone
 * numbers by "[phone]". The README lists the exact patterns. Must stay linear on 1 MB of text.
 */
export function maskSecrets(text: string): string {
  throw new Error("not implemented");
}

/**
 * TODO: the one line the model may see about a thrown value: "<ErrorName>: <message>" for an
 * Error (the thrown string itself, or its JSON, otherwise), cut to its first line, every path
 * token replaced by "[path]", then masked with maskSecrets, then trimmed.
 */
export function describeError(thrown: unknown): string {
  throw new Error("not implemented");
}

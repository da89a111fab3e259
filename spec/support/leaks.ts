// Planted secrets: a message that must never quote the model's raw text is checked for every run of
// 4 characters of a secret planted in that text. Secrets in the specs mix cases and digits (or
// letters and digits in turn) so that no such piece occurs in honest prose.

/** Every run of `n` characters of `secret`, in order. */
export function piecesOf(secret: string, n = 4): string[] {
  const pieces: string[] = [];
  for (let i = 0; i + n <= secret.length; i++) pieces.push(secret.slice(i, i + n));
  return pieces;
}

/**
 * The pieces of `secret` that `message` repeats: assert this is `[]`, once per message, rather
 * than one assertion per piece (a property checks thousands of pieces; the failure names them).
 */
export function leakedPieces(message: string, secret: string): string[] {
  return piecesOf(secret).filter((piece) => message.includes(piece));
}

// One tool execution: per-attempt timeout, retries with exponential backoff for retryable failures.

/** TODO: the wait before retry number `retry` (1, 2, 3, ...): baseMs * 2 ** (retry - 1). */
export function backoffDelay(retry: number, baseMs: number): number {
  throw new Error("not implemented");
}

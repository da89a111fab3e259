// The one place live mode touches the network: an HTTP exchange with the model server.
// Recording and replay (recording.ts) wrap or replace this function, so everything above it
// (status handling, JSON parsing, the error messages) runs the same live and offline.
import { LiveError } from "./errors.ts";

export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  body?: unknown;
}
export interface HttpResponse {
  status: number;
  /** The body exactly as received: a malformed reply is kept, so that it can be replayed. */
  text: string;
}
/** The failure of a request cut short by Ctrl-C (live, and in the recording). */
export const INTERRUPTED_MESSAGE = "interrupted while waiting for the model server";

export type Transport = (request: HttpRequest, signal: AbortSignal) => Promise<HttpResponse>;

export interface FetchTransportOptions {
  apiKey?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export function fetchTransport(options: FetchTransportOptions): Transport {
  const doFetch = options.fetch ?? fetch;
  return async (request, signal) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    // One signal for both ways a request ends early; which one fired decides the message.
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    const seconds = `${options.timeoutMs / 1000} s`;
    try {
      const response = await doFetch(request.url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: both,
      });
      const text = await response.text();
      return { status: response.status, text };
    } catch (error) {
      if (signal.aborted) throw new LiveError("interrupted", INTERRUPTED_MESSAGE);
      if (timeout.aborted) {
        throw new LiveError(
          "timeout",
          `no reply from ${request.url} within ${seconds}. A local model's first request loads it into memory and can be slow: ` +
            `try a larger --timeout (seconds), or a smaller model.`,
        );
      }
      throw new LiveError("unreachable", unreachableMessage(request.url, error));
    }
  };
}

function unreachableMessage(url: string, error: unknown): string {
  // Node's fetch reports "fetch failed" and keeps the real reason in `cause`.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? "";
  const reason =
    code === "ECONNREFUSED" ? "connection refused: nothing listens there"
    : code === "ENOTFOUND" ? "the host name does not resolve"
    : code === "ECONNRESET" || code === "UND_ERR_SOCKET" ? "the server closed the connection"
    : cause?.message ?? (error as Error).message;
  return (
    `cannot reach the model server at ${url} (${reason}). Is it running, and is --base-url right? ` +
    `For Ollama: \`ollama serve\`, then --base-url http://127.0.0.1:11434/v1.`
  );
}

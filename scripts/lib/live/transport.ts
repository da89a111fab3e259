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
  /** The body went to the stream's `chunk` instead (a 2xx reply to a streamed request): `text` is "". */
  streamed?: true;
  /** A streamed body that stopped before its end: why (the connection closed, no data within the timeout). */
  dropped?: string;
}
/**
 * Where a streamed reply's body goes, chunk by chunk, as the network delivers it. The next chunk
 * is read only once `chunk` has returned (and its promise, if any, has settled).
 */
export interface StreamSink {
  chunk(bytes: Uint8Array): void | Promise<void>;
}
/** The failure of a request cut short by Ctrl-C (live, and in the recording). */
export const INTERRUPTED_MESSAGE = "interrupted while waiting for the model server";

/**
 * One exchange. With a `sink`, a 2xx reply's body is streamed to it and the response says
 * `streamed`; any other status is read whole into `text`, as without one.
 */
export type Transport = (request: HttpRequest, signal: AbortSignal, sink?: StreamSink) => Promise<HttpResponse>;

export interface FetchTransportOptions {
  apiKey?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export function fetchTransport(options: FetchTransportOptions): Transport {
  const doFetch = options.fetch ?? fetch;
  const seconds = `${options.timeoutMs / 1000} s`;
  return async (request, signal, sink) => {
    const headers: Record<string, string> = { accept: sink ? "text/event-stream" : "application/json" };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    // One signal for both ways a request ends early; which one fired decides the message. A
    // streamed reply may take long as a whole: its timeout is the longest silence, restarted by
    // every chunk.
    const timeout = new AbortController();
    let timer = setTimeout(() => timeout.abort(), options.timeoutMs);
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => timeout.abort(), options.timeoutMs);
    };
    const both = AbortSignal.any([signal, timeout.signal]);
    let response: Response;
    let streaming = false;
    try {
      response = await doFetch(request.url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: both,
      });
      if (!sink || response.status < 200 || response.status > 299 || response.body === null) {
        const text = await response.text();
        return { status: response.status, text };
      }
      streaming = true;
    } catch (error) {
      if (signal.aborted) throw new LiveError("interrupted", INTERRUPTED_MESSAGE);
      if (timeout.signal.aborted) {
        throw new LiveError(
          "timeout",
          `no reply from ${request.url} within ${seconds}. A local model's first request loads it into memory and can be slow: ` +
            `try a larger --timeout (seconds), or a smaller model.`,
        );
      }
      throw new LiveError("unreachable", unreachableMessage(request.url, error));
    } finally {
      if (!streaming) clearTimeout(timer);
    }
    // The body, as it comes. Whatever stops it early (the server closed the connection, a silence
    // longer than the timeout) is not a failure of the request: the stream was cut, and the
    // assembler is the one to say what that leaves (status `cut`).
    const body = response.body!;
    const reader = body.getReader();
    let ended = false;
    try {
      for (;;) {
        restart();
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          ended = true;
          if (signal.aborted) throw new LiveError("interrupted", INTERRUPTED_MESSAGE);
          const why = timeout.signal.aborted ? `no data for ${seconds}` : `the connection closed (${causeOf(error)})`;
          return { status: response.status, text: "", streamed: true, dropped: why };
        }
        if (next.done) {
          ended = true;
          return { status: response.status, text: "", streamed: true };
        }
        clearTimeout(timer);
        if (signal.aborted) throw new LiveError("interrupted", INTERRUPTED_MESSAGE);
        await sink!.chunk(next.value);
        if (signal.aborted) throw new LiveError("interrupted", INTERRUPTED_MESSAGE);
      }
    } finally {
      clearTimeout(timer);
      reader.releaseLock();
      // Stopped early (Ctrl-C, or the run failed on a chunk): the rest of the body is not wanted.
      if (!ended) void body.cancel().catch(() => undefined);
    }
  };
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
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

// A minimal OpenAI-compatible chat-completions client on plain fetch (through a Transport).
// It is deliberately tolerant of what it reads: local servers differ in small ways (content as
// an array of parts, arguments as an object, a legacy `function_call`), and the messiness that
// is left (broken JSON arguments, unknown tool names) is the kata's job, not the client's.
import { excerpt, LiveError } from "./errors.ts";
import type { HttpResponse, StreamSink, Transport } from "./transport.ts";

/** One tool call as the server sent it, flattened. `arguments` is passed on untouched. */
export interface WireToolCall {
  id?: string;
  name: string;
  arguments?: unknown;
}
export interface ChatReply {
  content: string | null;
  toolCalls: WireToolCall[];
  usage?: { input_tokens: number; output_tokens: number };
  finishReason?: string;
}

export interface ChatClient {
  baseUrl: string;
  model: string;
  /** POST {baseUrl}/chat/completions with `body` (+ model, stream: false). */
  complete(body: Record<string, unknown>, signal: AbortSignal): Promise<ChatReply>;
  /**
   * POST {baseUrl}/chat/completions with `body` (+ model, stream: true): the reply's body goes to
   * `sink` chunk by chunk, untouched. Resolves when it has ended; `dropped` says why it stopped
   * early, when it did. A status that is not 2xx fails as `complete` does.
   */
  stream(body: Record<string, unknown>, signal: AbortSignal, sink: StreamSink): Promise<{ dropped?: string }>;
}

/** `http://host:port/v1/` and `.../v1/chat/completions` both become `http://host:port/v1`. */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`--base-url is not a URL: ${JSON.stringify(raw)} (for Ollama: http://127.0.0.1:11434/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`--base-url must be http:// or https://, got ${url.protocol}`);
  url.search = "";
  url.hash = "";
  return url.href.replace(/\/+$/, "").replace(/\/chat\/completions$/, "");
}

export function createChatClient(transport: Transport, baseUrl: string, model: string, hasApiKey: boolean): ChatClient {
  const endpoint = `${baseUrl}/chat/completions`;
  return {
    baseUrl,
    model,
    async complete(body, signal) {
      const response = await transport({ method: "POST", url: endpoint, body: { model, ...body, stream: false } }, signal);
      if (response.status < 200 || response.status > 299) {
        throw await statusError(response, { transport, baseUrl, model, endpoint, hasApiKey, signal });
      }
      return parseChatReply(response.text, endpoint);
    },
    async stream(body, signal, sink) {
      const response = await transport({ method: "POST", url: endpoint, body: { model, ...body, stream: true } }, signal, sink);
      if (response.status < 200 || response.status > 299) {
        throw await statusError(response, { transport, baseUrl, model, endpoint, hasApiKey, signal });
      }
      return response.dropped === undefined ? {} : { dropped: response.dropped };
    },
  };
}

interface ErrorContext {
  transport: Transport;
  baseUrl: string;
  model: string;
  endpoint: string;
  hasApiKey: boolean;
  signal: AbortSignal;
}

/** The server's own explanation: OpenAI's `{error: {message}}`, Ollama's `{error: "..."}`, or the text. */
function serverMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = json.error;
    if (typeof e === "string") return e;
    if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof json.message === "string") return json.message;
    if (typeof json.detail === "string") return json.detail;
  } catch {
    // not JSON: quote the text itself
  }
  return excerpt(text) || "(empty body)";
}

async function statusError(response: HttpResponse, ctx: ErrorContext): Promise<LiveError> {
  const said = serverMessage(response.text);
  if (response.status === 401 || response.status === 403) {
    const key = ctx.hasApiKey
      ? "the API key that was sent was refused: check --api-key / OPENAI_API_KEY"
      : "no API key was sent: pass --api-key KEY or set OPENAI_API_KEY";
    return new LiveError("unauthorized", `the server answered ${response.status} (${said}): ${key}.`);
  }
  if (response.status === 404) {
    // A 404 is either an unknown model or a base URL without its /v1: the model list tells which.
    const models = await listModels(ctx);
    const hint =
      models === undefined
        ? `Check --model (Ollama: \`ollama list\`, \`ollama pull ${ctx.model}\`) and that --base-url ends in /v1 (it is ${ctx.baseUrl}).`
        : models.length === 0
          ? `The server lists no models: pull or load one first (Ollama: \`ollama pull ${ctx.model}\`).`
          : models.includes(ctx.model)
            ? `The server does list ${ctx.model}: check that --base-url is the OpenAI-compatible root (usually ending in /v1).`
            : `Model ${JSON.stringify(ctx.model)} is not one of the server's models: ${models.slice(0, 20).join(", ")}${models.length > 20 ? ", ..." : ""}.`;
    return new LiveError("not_found", `the server answered 404 for POST ${ctx.endpoint} (${said}). ${hint}`);
  }
  if (response.status === 429) return new LiveError("http", `the server answered 429, too many requests (${said}): wait and try again.`);
  return new LiveError("http", `the server answered ${response.status} for POST ${ctx.endpoint}: ${said}`);
}

/** GET {base}/models; undefined when that fails in any way (it is only a hint). */
async function listModels(ctx: ErrorContext): Promise<string[] | undefined> {
  try {
    const response = await ctx.transport({ method: "GET", url: `${ctx.baseUrl}/models` }, ctx.signal);
    if (response.status !== 200) return undefined;
    const json = JSON.parse(response.text) as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> };
    if (Array.isArray(json.data)) return json.data.map((m) => m?.id).filter((id): id is string => typeof id === "string");
    return undefined;
  } catch (error) {
    if (error instanceof LiveError && error.kind === "interrupted") throw error;
    return undefined;
  }
}

/** A content field as text: a string, or an array of parts whose `text`s are joined. */
function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : "")).join("");
  }
  return null;
}

export function parseChatReply(text: string, endpoint: string): ChatReply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LiveError(
      "malformed",
      `the server's reply to POST ${endpoint} is not valid JSON: ${JSON.stringify(excerpt(text, 160))}. ` +
        `Is --base-url an OpenAI-compatible API (for example http://127.0.0.1:11434/v1)?`,
    );
  }
  const choice = (json as { choices?: unknown }).choices;
  const first = Array.isArray(choice) ? (choice[0] as { message?: unknown; finish_reason?: unknown } | undefined) : undefined;
  const message = first?.message as Record<string, unknown> | undefined;
  if (!message || typeof message !== "object") {
    throw new LiveError(
      "malformed",
      `the server's reply is JSON but not a chat completion (no choices[0].message): ${JSON.stringify(excerpt(text, 160))}`,
    );
  }
  const toolCalls: WireToolCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const raw of message.tool_calls as Array<Record<string, unknown> | null>) {
      if (!raw || typeof raw !== "object") continue;
      const fn = (raw.function && typeof raw.function === "object" ? raw.function : raw) as Record<string, unknown>;
      toolCalls.push({
        id: typeof raw.id === "string" ? raw.id : undefined,
        // A missing name stays visible as "": the loop answers it with unknown_tool.
        name: typeof fn.name === "string" ? fn.name : "",
        arguments: fn.arguments ?? fn.parameters,
      });
    }
  } else if (message.function_call && typeof message.function_call === "object") {
    // The legacy single-call field some servers still use.
    const fn = message.function_call as Record<string, unknown>;
    toolCalls.push({ name: typeof fn.name === "string" ? fn.name : "", arguments: fn.arguments });
  }
  const usage = (json as { usage?: Record<string, unknown> }).usage;
  const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0);
  return {
    content: contentText(message.content),
    toolCalls,
    usage: usage && typeof usage === "object" ? { input_tokens: count(usage.prompt_tokens), output_tokens: count(usage.completion_tokens) } : undefined,
    finishReason: typeof first?.finish_reason === "string" ? first.finish_reason : undefined,
  };
}

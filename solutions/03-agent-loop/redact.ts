// Whatever a tool returns or throws may hold a secret, a phone number or a stack trace. None of it
// may reach the model's context or the trace: both are logged, stored and replayed.

// Each pattern starts at a boundary (a lookbehind), so a long run of look-alike characters is
// scanned once, not once per starting position: masking stays linear on a 1 MB tool result.
const RULES: Array<[RegExp, string]> = [
  // API-key-like tokens: OpenAI/Anthropic "sk-...", GitHub tokens, AWS access key ids, Bearer tokens.
  [/(?<![\w-])sk-[A-Za-z0-9_-]{16,}/g, "[secret]"],
  [/(?<!\w)(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}/g, "[secret]"],
  [/(?<![A-Za-z0-9])AKIA[0-9A-Z]{16}(?![A-Za-z0-9])/g, "[secret]"],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, "Bearer [secret]"],
  [/(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, "[email]"],
  // 18-digit Chinese resident ID: 17 digits and a digit or X check character.
  [/(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])/g, "[id_number]"],
  // Chinese mobile numbers, with or without +86.
  [/(?<![\d+])(?:\+?86[ -]?)?1[3-9]\d{9}(?!\d)/g, "[phone]"],
  // International numbers: "+", a country code, then 6 to 14 more digits with optional separators.
  [/(?<![\w+])\+\d{1,3}(?:[ .-]?\d){6,14}(?!\d)/g, "[phone]"],
];

export function maskSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

/** Masks every string inside a JSON-like value, keys included; other values are kept. */
export function maskDeep(value: unknown): unknown {
  if (typeof value === "string") return maskSecrets(value);
  if (Array.isArray(value)) return value.map(maskDeep);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a key named "__proto__" stays data, it does not swap the prototype.
      Object.defineProperty(out, maskSecrets(k), { value: maskDeep(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

// A token that starts like a path: /abs, ~/x, ./x, ../x, C:\x, C:/x, file://...
const PATH = /(?<![^\s"'`(\[{<=,:])(?:file:\/\/|[A-Za-z]:[\\/]|~\/|\.{1,2}[\\/]|\/)[^\s"'`()\[\]{}<>,]+/g;

/**
 * The one line the model may see about a failure: "<ErrorName>: <first line of the message>",
 * without file paths, with secrets masked. Stack traces live on the lines after the first.
 */
export function describeError(thrown: unknown): string {
  let text: string;
  if (thrown instanceof Error) text = `${thrown.name}: ${thrown.message}`;
  else {
    try {
      text = typeof thrown === "string" ? thrown : JSON.stringify(thrown) ?? String(thrown);
    } catch {
      text = String(thrown);
    }
  }
  const firstLine = text.split(/\r\n|\r|\n/, 1)[0];
  return maskSecrets(firstLine.replace(PATH, "[path]")).trim();
}

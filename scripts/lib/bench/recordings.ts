// Kata 4's recorded streams (spec/data/streams: ten providers' replies, recorded by prism-php/prism
// and anthropic-sdk-typescript for their own tests) for the benchmark: each file's text and the
// dialect its server speaks, by folder as spec/data/streams/README.md says. The spec
// (spec/04-stream-assembly/recordings.spec.ts) writes down what each one gives; bench.ts only
// checks that each reads the same as text and as parsed events.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Dialect } from "../../../solutions/04-stream-assembly/index.ts";
import { PROJECT_ROOT } from "../impl-root.ts";

export const RECORDINGS_DIR = join(PROJECT_ROOT, "spec", "data", "streams");

/** The recording that ends without its end on purpose (spec/data/streams/README.md): status `cut`. */
export const CUT_ON_PURPOSE = "prism/gemini/stream-basic-text-1.sse";

export interface Recording {
  /** Its path under spec/data/streams. */
  file: string;
  dialect: Dialect;
  text: string;
}

/** The dialect of a recording, by its folder: prism's openai/ is the Responses API but for two chat-completions files. */
function dialectOf(file: string): Dialect {
  const [top, provider] = file.split("/");
  if (top === "anthropic-sdk" || provider === "anthropic") return "anthropic";
  if (provider === "gemini") return "gemini";
  if (provider === "ollama") return "ollama";
  if (provider === "openai") return /^prism\/openai\/stream-falsy-argument-conversation-\d+\.json$/.test(file) ? "chat-completions" : "responses";
  return "chat-completions";
}

/** Every recording (`.sse` and `.json` files), sorted by path. */
export function recordings(): Recording[] {
  const files = readdirSync(RECORDINGS_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(sse|json)$/.test(entry.name))
    .map((entry) => relative(RECORDINGS_DIR, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
  return files.map((file) => ({ file, dialect: dialectOf(file), text: readFileSync(join(RECORDINGS_DIR, file), "utf8") }));
}

// Kata 4 against real data: streams recorded from ten providers by other projects for their own
// tests (spec/data/streams, MIT: prism-php/prism and anthropic-sdk-typescript). Each recording is
// pushed as parsed events (read by the spec), and as raw text and bytes in random chunkings, and
// must give the calls and the text written below, which were checked by hand against each file
// (for the Responses recordings, also against the arguments their `.done` events carry).
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect } from "vitest";
import { replay, type Dialect, type ErrorCode, type StreamStatus } from "@impl/04-stream-assembly";
import { l1, l2, l3 } from "../support/graded.ts";
import { cutChoices, choose, rawHardCuts, utf8HardCuts } from "./arbitraries.ts";
import { cutAt, cutBytes, parseNdjson, parseSse, utf8 } from "./helpers.ts";

interface Recording {
  file: string;
  dialect: Dialect;
  status: StreamStatus;
  finishReason: string | null;
  /** The text: its length, how it starts and how it ends. */
  text: [number, string, string];
  /** id, name, arguments, and the thought signature's first characters (Gemini). */
  calls: [string, string, Record<string, unknown>, string?][];
  errors: ErrorCode[];
}

const R = (file: string, dialect: Dialect, status: StreamStatus, finishReason: string | null, text: Recording["text"], calls: Recording["calls"] = [], errors: ErrorCode[] = []): Recording =>
  ({ file, dialect, status, finishReason, text, calls, errors });

const RECORDINGS: Recording[] = [
  R("anthropic-sdk/basic_response.sse", "anthropic", "complete", "end_turn", [12, "Hello there!", "Hello there!"]),
  R("anthropic-sdk/incomplete_partial_json_response.sse", "anthropic", "incomplete", "max_tokens", [135, "I'll create a comprehens", "hat for you now."], [], ["truncated"]),
  R("anthropic-sdk/tool_use_response.sse", "anthropic", "complete", "tool_use", [48, "I'll check the current w", "n Paris for you."], [["toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", { location: "Paris" }]]),
  R("prism/anthropic/stream-basic-text-1.sse", "anthropic", "complete", "end_turn", [468, "I'm Claude, an AI assist", " help you today?"]),
  R("prism/anthropic/stream-multi-tool-conversation-1.sse", "anthropic", "complete", "tool_use", [107, "I'll help you find infor", "ck both for you."], [["toolu_016AhXWHqihGLjGMwXYGqBLL", "search", { query: "Detroit Tigers game today time" }]]),
  R("prism/anthropic/stream-multi-tool-conversation-2.sse", "anthropic", "complete", "tool_use", [78, "Let me also check the we", "'ll need a coat:"], [["toolu_01BE2CvaBCFKV3NSyuZBgRjR", "weather", { city: "Detroit" }]]),
  R("prism/anthropic/stream-multi-tool-conversation-3.sse", "anthropic", "complete", "end_turn", [300, "The Tigers game is today", " of the stadium."]),
  R("prism/anthropic/stream-with-citations-1.sse", "anthropic", "complete", "end_turn", [166, "Based on the provided do", "our environment."]),
  R("prism/anthropic/stream-with-extended-thinking-1.sse", "anthropic", "complete", "end_turn", [837, "In popular fiction, the ", " in pop culture."]),
  R("prism/anthropic/stream-with-tools-1.sse", "anthropic", "complete", "tool_use", [190, "I'll help you find infor", "s game schedule:"], [["toolu_014cZKakAghgvhi4Y99XBUru", "search", { query: "Detroit Tigers baseball game today time schedule" }]]),
  R("prism/anthropic/stream-with-tools-2.sse", "anthropic", "complete", "tool_use", [80, "Let me check the weather", "uld wear a coat:"], [["toolu_01NLsWDkz5bePyj8fRKcdDDQ", "weather", { city: "Detroit" }]]),
  R("prism/anthropic/stream-with-tools-3.sse", "anthropic", "complete", "end_turn", [124, "Based on my search, I ne", "t information.\n\n"]),
  R("prism/anthropic/stream-with-web-search-citations-1.sse", "anthropic", "complete", "end_turn", [875, "I'll check the current w", "nd sun exposure."]),
  R("prism/deepseek/stream-basic-text-1.sse", "chat-completions", "complete", "stop", [644, "I’m DeepSeek Chat, an AI", "lp you today? 🚀"]),
  R("prism/deepseek/stream-max-tokens-1.sse", "chat-completions", "complete", "stop", [373, "I’m DeepSeek Chat, an AI", "ssist you today?"]),
  R("prism/deepseek/stream-system-prompt-1.sse", "chat-completions", "complete", "stop", [326, "I’m DeepSeek Chat, your ", "lp you today? 🚀"]),
  R("prism/deepseek/stream-with-reasoning-1.sse", "chat-completions", "complete", "stop", [635, "It looks like you've pre", " deeper dive! 😊"]),
  R("prism/deepseek/stream-with-tools-1.sse", "chat-completions", "complete", "tool_calls", [0, "", ""], [
    ["call_0_7d6a342f-6da3-400c-a4f9-d80055fd7c74", "search", { query: "Detroit Tigers game time today" }],
    ["call_1_b0aff31e-ccb8-4418-a5fa-2d16caaf7945", "get_weather", { city: "Detroit" }]]),
  R("prism/deepseek/stream-with-tools-2.sse", "chat-completions", "complete", "stop", [279, "The Detroit Tigers game ", "me time for you?"]),
  R("prism/gemini/stream-basic-text-1.sse", "gemini", "cut", null, [0, "", ""]),
  R("prism/gemini/stream-with-multiple-tools-1.json", "gemini", "complete", "STOP", [0, "", ""], [
    ["call_0", "weather", { city: "San Francisco" }, "CiQBcsjafHZT"], ["call_1", "weather", { city: "Santa Cruz" }]]),
  R("prism/gemini/stream-with-multiple-tools-2.json", "gemini", "complete", "STOP", [114, "It is warmer in Santa Cr", "s 75° and sunny."]),
  R("prism/gemini/stream-with-tools-1.json", "gemini", "complete", "STOP", [0, "", ""], [["call_0", "weather", { city: "San Francisco" }, "thought_abc1"]]),
  R("prism/gemini/stream-with-tools-2.json", "gemini", "complete", "STOP", [79, "It is 75° and sunny in S", " to wear a coat."]),
  R("prism/gemini/stream-with-tools-search-grounding-1.json", "gemini", "complete", "STOP", [612, "The current weather in S", "jacket at night."]),
  R("prism/gemini/stream-with-tools-thought-1.json", "gemini", "complete", "STOP", [0, "", ""], [["call_0", "weather", { city: "San Francisco" }, "Eq0ECqoEAdHt"]]),
  R("prism/gemini/stream-with-tools-thought-2.json", "gemini", "complete", "STOP", [177, "The current weather in S", "ools down later."]),
  R("prism/groq/stream-basic-text-1.sse", "chat-completions", "complete", "stop", [152, "Hello! I'm Groq AI, your", "ssist you today?"]),
  R("prism/groq/stream-with-tools-1.sse", "chat-completions", "complete", "tool_calls", [68, "I'll help you find out a", "ther in Detroit."], [["call_abc123def456", "search", { query: "Detroit Tigers game today time schedule" }]]),
  R("prism/groq/stream-with-tools-2.sse", "chat-completions", "complete", "tool_calls", [37, "Now I'll check the weath", "ather in Detroit"], [["call_ghi789jkl012", "weather", { city: "Detroit" }]]),
  R("prism/groq/stream-with-tools-3.sse", "chat-completions", "complete", "stop", [297, "Based on the information", " tonight's game!"]),
  R("prism/mistral/stream-basic-text-1-1.sse", "chat-completions", "complete", "stop", [49, "I'm a large language mod", "d by Mistral AI."]),
  R("prism/mistral/stream-basic-text-1.sse", "chat-completions", "complete", "stop", [260, "I am a text-based AI mod", "f if you'd like."]),
  R("prism/mistral/stream-reasoning-model-1-1.sse", "chat-completions", "complete", "stop", [16, "The answer is 4.", "The answer is 4."]),
  R("prism/mistral/stream-with-tools-1-1.sse", "chat-completions", "complete", "tool_calls", [0, "", ""], [
    ["yBvJuId6u", "search", { query: "Detroit Tigers game time today" }], ["ihQrVBDfy", "weather", { city: "Detroit" }]]),
  R("prism/mistral/stream-with-tools-1-2.sse", "chat-completions", "complete", "stop", [190, "The Detroit Tigers game ", "oy the game! ⚾😊"]),
  R("prism/ollama/stream-basic-text-1.sse", "ollama", "complete", "stop", [138, "I am Granite, a language", "ons and prompts."]),
  R("prism/ollama/stream-multi-tool-conversation-1.sse", "ollama", "complete", "stop", [0, "", ""], [["call_0", "weather", { city: "Detroit" }]]),
  R("prism/ollama/stream-with-thinking-1.sse", "ollama", "complete", "stop", [70, "Here is the answer: You ", "ave a great day!"]),
  R("prism/ollama/stream-with-thinking-enabled-1.sse", "ollama", "complete", "stop", [89, "Sure thing! Let me know ", "ecific you need."]),
  R("prism/ollama/stream-with-tools-1.sse", "ollama", "complete", "stop", [0, "", ""], [
    ["call_0", "weather", { city: "Detroit" }], ["call_1", "search", { query: "Detroit Tigers game time today" }]]),
  R("prism/ollama/stream-with-tools-2.sse", "ollama", "complete", "stop", [0, "", ""], [["call_0", "weather", { city: "Detroit" }]]),
  R("prism/ollama/stream-with-tools-3.sse", "ollama", "complete", "stop", [794, "<think>\nOkay, let me fig", "at for the game!"]),
  R("prism/ollama/stream-without-thinking-1.sse", "ollama", "complete", "stop", [78, "Got it! The system is up", "ike to try next."]),
  R("prism/openai/stream-basic-text-responses-1.json", "responses", "complete", "completed", [283, "I am OpenAI's language m", " learning model."]),
  R("prism/openai/stream-falsy-argument-conversation-1.json", "chat-completions", "complete", "tool_calls", [0, "", ""], [["call_otApj1cOLUQHztaMBDUSn8gQ", "get_models", { modelId: 0 }]]),
  R("prism/openai/stream-falsy-argument-conversation-2.json", "chat-completions", "complete", "stop", [202, "The model with id 0 is k", "re entertaining."]),
  R("prism/openai/stream-falsy-argument-conversation-responses-1.json", "responses", "complete", "completed", [0, "", ""], [["call_HvFuJxrSMSLGrCenm9e67o4N", "get_models", { modelId: 0 }]]),
  R("prism/openai/stream-falsy-argument-conversation-responses-2.json", "responses", "complete", "completed", [54, "The model with id 0 is c", "funniest of all."]),
  R("prism/openai/stream-multi-tool-conversation-responses-1.json", "responses", "complete", "completed", [0, "", ""], [
    ["call_SJiaC1TXbxeEz3E9NqIitlNw", "search", { query: "Detroit Tigers game schedule October 10 2023" }], ["call_m6EXLHUhaq7ofMlz1ktzS8R8", "weather", { city: "Detroit" }]]),
  R("prism/openai/stream-multi-tool-conversation-responses-2.json", "responses", "complete", "completed", [106, "The Detroit Tigers game ", "n't need a coat!"]),
  R("prism/openai/stream-multi-tool-conversation-responses-reasoning-1.json", "responses", "complete", "completed", [0, "", ""], [["call_GLsIMps0vfGJeDhu3zAjy3wd", "search", { query: "Detroit Tigers game today start time" }]]),
  R("prism/openai/stream-multi-tool-conversation-responses-reasoning-2.json", "responses", "complete", "completed", [0, "", ""], [["call_o4ixSmTdq08gNusjof7xOyNQ", "weather", { city: "Detroit" }]]),
  R("prism/openai/stream-multi-tool-conversation-responses-reasoning-3.json", "responses", "complete", "completed", [196, "The Tigers game is sched", " Enjoy the game!"]),
  R("prism/openai/stream-multi-tool-conversation-responses-reasoning-past-reasoning-1.json", "responses", "complete", "completed", [0, "", ""], [["call_nNlsgLEC5L6HTPLYNLGxYOrZ", "search", { query: "Detroit Tigers game time June 23 2025" }]]),
  R("prism/openai/stream-multi-tool-conversation-responses-reasoning-past-reasoning-2.json", "responses", "complete", "completed", [0, "", ""], [["call_n2jI7QekRXWoUL84n26vTYVt", "weather", { city: "Detroit" }]]),
  R("prism/openai/stream-multi-tool-conversation-responses-reasoning-past-reasoning-3.json", "responses", "complete", "completed", [382, "The Tigers are playing a", " Enjoy the game!"]),
  R("prism/openai/stream-multiple-output-items-1.json", "responses", "complete", "completed", [27, "First messageSecond mess", "geSecond message"]),
  R("prism/openai/stream-rate-limited-1.json", "responses", "failed", null, [0, "", ""], [], ["server_error"]),
  R("prism/openai/stream-reasoning-effort-1.json", "responses", "complete", "completed", [256, "I’m an AI assistant crea", " help you today?"]),
  R("prism/openai/stream-unknown-error-responses-1.json", "responses", "failed", null, [0, "", ""], [], ["server_error"]),
  R("prism/openai/stream-with-provider-tool-1.json", "responses", "complete", "completed", [591, "To convert a length in c", "ength in inches."]),
  R("prism/openai/stream-with-tools-responses-1.json", "responses", "complete", "completed", [0, "", ""], [
    ["call_GXd80NWdsX8ng3xdeNLeA42o", "search", { query: "Detroit Tigers game time October 6, 2023" }], ["call_qfdHN9tTntv02109c9RNnGGe", "weather", { city: "Detroit" }]]),
  R("prism/openai/stream-with-tools-responses-2.json", "responses", "complete", "completed", [240, "I couldn't find the spec", "not need a coat!"]),
  R("prism/openrouter/stream-text-with-a-prompt-1.sse", "chat-completions", "complete", "stop", [75, "Hello! I'm an AI assista", " help you today?"]),
  R("prism/openrouter/stream-text-with-empty-parameters-tools-when-using-gpt-5-1.sse", "chat-completions", "complete", "tool_calls", [0, "", ""], [["call_KDpVIRBU5EIprhJ4cpxDEfPr", "time", {}]]),
  R("prism/openrouter/stream-text-with-empty-parameters-tools-when-using-gpt-5-2.sse", "chat-completions", "complete", "stop", [29, "The current time is 08:0", "ime is 08:00:00."]),
  R("prism/openrouter/stream-text-with-reasoning-1.sse", "chat-completions", "complete", "stop", [25, "The answer to 2 + 2 is 4", "r to 2 + 2 is 4."]),
  R("prism/openrouter/stream-text-with-tools-1.sse", "chat-completions", "complete", "tool_calls", [38, "I'll help you get the we", "weather for you."], [["tool_call_1", "weather", { city: "San Francisco" }]]),
  R("prism/openrouter/stream-text-with-tools-2.sse", "chat-completions", "complete", "stop", [81, "Based on the weather inf", "n San Francisco!"]),
  R("prism/perplexity/stream-basic-text-1.sse", "chat-completions", "complete", "stop", [450, "I am Qwen, a large-scale", "n help you with?"]),
  R("prism/xai/stream-basic-text-responses-1.json", "chat-completions", "complete", "stop", [1019, "Ah, the Ultimate Questio", " Fire away! \u00f0\u009f\u009a\u0080"]),
  R("prism/xai/stream-basic-text-responses-with-zeros-1.json", "chat-completions", "complete", "stop", [6, "410050", "410050"]),
  R("prism/xai/stream-with-reasoning-responses-1.json", "chat-completions", "complete", "stop", [93, "To solve 15 × 23, I can ", "swer is **345**."]),
  R("prism/xai/stream-with-tools-responses-1.json", "chat-completions", "complete", "tool_calls", [0, "", ""], [["call_47706007", "get_weather", { city: "Detroit" }]]),
  R("prism/xai/stream-with-tools-responses-2.json", "chat-completions", "complete", "tool_calls", [0, "", ""], [["call_47706008", "get_weather", { city: "Detroit" }]]),
  R("prism/xai/stream-with-tools-responses-3.json", "chat-completions", "complete", "stop", [93, "Based on the weather inf", "n't need a coat!"]),
];

const raw = (r: Recording) => readFileSync(new URL(`../data/streams/${r.file}`, import.meta.url), "utf8");
const eventsOf = (r: Recording) => (r.dialect === "ollama" ? parseNdjson(raw(r)) : parseSse(raw(r)));

/** The run of a recording gives what was written down for it. */
function expectRecording(r: Recording, result: ReturnType<typeof replay>["result"]): void {
  const where = r.file;
  expect(result.calls.map((c) => [c.id, c.name, c.arguments, ...(c.thoughtSignature ? [c.thoughtSignature.slice(0, 12)] : [])]), where).toEqual(r.calls);
  expect(result.errors.map((e) => e.code), where).toEqual(r.errors);
  expect([result.text.length, result.text.slice(0, 24), result.text.slice(-16)], where).toEqual(r.text);
  expect([result.status, result.finishReason], where).toEqual([r.status, r.finishReason]);
  expect(result.toolTurn, where).toBe(r.calls.length > 0 || r.errors.includes("truncated"));
}

const byDialect = (dialect: Dialect) => RECORDINGS.filter((r) => r.dialect === dialect);
const recording = (file: string) => RECORDINGS.find((r) => r.file === file)!;

describe("1. Chat-completions: real recordings", () => {
  l1("the data is there: every recording of spec/data/streams is written down here", () => {
    expect(RECORDINGS).toHaveLength(77);
    expect(new Set(RECORDINGS.map((r) => r.dialect))).toEqual(new Set(["chat-completions", "responses", "anthropic", "gemini", "ollama"]));
    const r = recording("prism/openai/stream-falsy-argument-conversation-1.json");
    expect(replay({ dialect: r.dialect }, { events: eventsOf(r) }).result.calls.map((c) => c.name)).toEqual(["get_models"]);
  });

  l1("OpenAI's call with the falsy argument 0, and DeepSeek's two parallel calls, as parsed events", () => {
    for (const file of ["prism/openai/stream-falsy-argument-conversation-1.json", "prism/deepseek/stream-with-tools-1.sse"]) {
      const r = recording(file);
      expectRecording(r, replay({ dialect: r.dialect }, { events: eventsOf(r) }).result);
    }
  });

  l2("chat-completions recordings of seven providers give the calls and the text checked by hand", () => {
    const recordings = byDialect("chat-completions");
    expect(recordings.length).toBeGreaterThan(25);
    for (const r of recordings) expectRecording(r, replay({ dialect: r.dialect }, { events: eventsOf(r) }).result);
  });
});

describe("4. The other dialects: real recordings", () => {
  l2("Responses recordings: the calls checked by hand, whose arguments are exactly what their .done events carry", () => {
    for (const r of byDialect("responses")) {
      const events = eventsOf(r);
      const result = replay({ dialect: r.dialect }, { events }).result;
      expectRecording(r, result);
      const done = events.filter((e: any) => e.type === "response.function_call_arguments.done").map((e: any) => e.arguments);
      expect(result.calls.map((c) => c.rawArguments), r.file).toEqual(done);
    }
  });

  l2("Anthropic recordings: text, thinking, citations and server tools; the tool block cut by max_tokens is truncated", () => {
    for (const r of byDialect("anthropic")) expectRecording(r, replay({ dialect: r.dialect }, { events: eventsOf(r) }).result);
    const cut = replay({ dialect: "anthropic" }, { events: eventsOf(recording("anthropic-sdk/incomplete_partial_json_response.sse")) }).result;
    expect(cut.errors[0]).toMatchObject({ code: "truncated", id: "toolu_01EKqbqmZrGRXy18eN7m9kvY", name: "make_file" });
    expect(cut.errors[0].raw).toMatch(/^\{"filename": "taxes\.txt", "lines_of_text": \[\n/);
  });

  l2("Gemini and Ollama recordings: whole calls, ids made up, signatures kept, thoughts left out", () => {
    for (const r of [...byDialect("gemini"), ...byDialect("ollama")]) expectRecording(r, replay({ dialect: r.dialect }, { events: eventsOf(r) }).result);
  });

  l2("usage as the recordings carry it: chat-completions' last usage chunk, Anthropic's merged, Gemini's usageMetadata", () => {
    const usage = (file: string) => replay({ dialect: recording(file).dialect }, { events: eventsOf(recording(file)) }).result.usage;
    expect(usage("prism/deepseek/stream-with-tools-1.sse")).toMatchObject({ prompt_tokens: 223, completion_tokens: 43, total_tokens: 266 });
    expect(usage("anthropic-sdk/tool_use_response.sse")).toMatchObject({ input_tokens: 377, output_tokens: 65 });
    expect(usage("prism/gemini/stream-with-tools-1.json")).toMatchObject({ promptTokenCount: 109, candidatesTokenCount: 14 });
    expect(usage("prism/openai/stream-with-tools-responses-1.json")).toMatchObject({ input_tokens: 92, output_tokens: 52 });
    expect(usage("prism/ollama/stream-with-tools-1.sse")).toBeNull();
  });
});

describe("5. Raw streams: real recordings", () => {
  const recordingArb = fc.constantFrom(...RECORDINGS);

  l3.property("every recording as raw text, cut anywhere, gives what was written down for it", () => {
    fc.assert(fc.property(recordingArb, cutChoices, (r, choices) => {
      const text = raw(r);
      const cuts = choose(text, choices, rawHardCuts(text)).filter((c) => c > 0 && c < text.length);
      expectRecording(r, replay({ dialect: r.dialect }, { text: cutAt(text, cuts) }).result);
    }));
  });

  l3.property("every recording as bytes cut inside UTF-8 characters gives what was written down for it", () => {
    fc.assert(fc.property(recordingArb, cutChoices, (r, choices) => {
      const bytes = utf8(raw(r));
      const cuts = choose(raw(r), choices, utf8HardCuts(bytes)).map((c) => Math.min(c, bytes.length - 1)).filter((c) => c > 0);
      expectRecording(r, replay({ dialect: r.dialect }, { bytes: cutBytes(bytes, cuts) }).result);
    }));
  });

  l3("the Gemini recording whose data: lines lost their blank lines is one event, cut at the end: no text, no error", () => {
    const r = recording("prism/gemini/stream-basic-text-1.sse");
    expect(raw(r).split("\n").filter((l) => l.startsWith("data: ")).length).toBe(4);
    const run = replay({ dialect: "gemini" }, { text: [raw(r)] });
    expect(run.result).toMatchObject({ status: "cut", text: "", errors: [], calls: [] });
    const separated = replay({ dialect: "gemini" }, { text: [raw(r).replaceAll("\n", "\n\n")] }).result;
    expect(separated).toMatchObject({ status: "complete", finishReason: "STOP", errors: [] });
    expect(separated.text).toMatch(/^AI\? It's simple!/);
  });
});

// Kata 3's public API.
export type * from "./types.ts";
export { runAgent } from "./loop.ts";
export { checkArguments, parseArguments, type ArgumentProblem, type ParsedArguments } from "./arguments.ts";
export { canonicalJson } from "./canonical.ts";
export { maskSecrets, describeError } from "./redact.ts";
export { truncateText } from "./envelope.ts";
export { backoffDelay } from "./retry.ts";
export { systemClock } from "./clock.ts";
export {
  toOpenAIMessages,
  toAnthropicMessages,
  type OpenAIMessage,
  type AnthropicMessage,
  type AnthropicBlock,
} from "./adapters.ts";

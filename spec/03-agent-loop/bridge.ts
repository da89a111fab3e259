// Kata 3 as the specs see it in a graded run: the same public API as the stub, each function a
// call into the kata's sandbox process (spec/support/sandbox/). The model, tools, clock, approval,
// policy and trace the specs pass are called back in the specs' process; `systemClock` is the
// kata's own clock, whose `now` and `sleep` run in the sandbox.
import type * as Kata from "../../katas/03-agent-loop/index.ts";
import { loadKata } from "../support/sandbox/bridge.ts";

export type * from "../../katas/03-agent-loop/types.ts";
export type { ArgumentProblem, ParsedArguments, OpenAIMessage, AnthropicMessage, AnthropicBlock } from "../../katas/03-agent-loop/index.ts";

const kata = await loadKata("03-agent-loop", { classes: {}, methods: ["now", "sleep"] });

export const runAgent = kata.export<typeof Kata.runAgent>("runAgent");
export const checkArguments = kata.export<typeof Kata.checkArguments>("checkArguments");
export const parseArguments = kata.export<typeof Kata.parseArguments>("parseArguments");
export const canonicalJson = kata.export<typeof Kata.canonicalJson>("canonicalJson");
export const maskSecrets = kata.export<typeof Kata.maskSecrets>("maskSecrets");
export const describeError = kata.export<typeof Kata.describeError>("describeError");
export const truncateText = kata.export<typeof Kata.truncateText>("truncateText");
export const backoffDelay = kata.export<typeof Kata.backoffDelay>("backoffDelay");
export const systemClock = kata.export<typeof Kata.systemClock>("systemClock");
export const toOpenAIMessages = kata.export<typeof Kata.toOpenAIMessages>("toOpenAIMessages");
export const toAnthropicMessages = kata.export<typeof Kata.toAnthropicMessages>("toAnthropicMessages");

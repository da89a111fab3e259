// The kata 3 harness: a scripted model, tools with scripted behaviour and a fake clock.
// Documented in katas/03-agent-loop/README.md, section "The harness the specs use".
export { FakeClock } from "./clock.ts";
export { scriptedModel, reply, MAX_SCRIPTED_REQUESTS, type ScriptedModel, type RecordedRequest, type CallSpec, type ScriptEntry } from "./model.ts";
export * from "./tools.ts";

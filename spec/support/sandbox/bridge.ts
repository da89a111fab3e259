// What every kata's bridge (spec/NN-name/bridge.ts) calls at load: the kata, in its sandbox, for
// this spec file. Kept apart from client.ts, which the grader's own process uses too and which
// must not load the test runner.
import { expect } from "vitest";
import { connect, type KataLink, type KataSpec } from "./client.ts";

export type { KataLink };

export function loadKata(kataId: string, spec: Omit<KataSpec, "currentTest">): Promise<KataLink> {
  return connect(kataId, { ...spec, currentTest: () => expect.getState().currentTestName });
}

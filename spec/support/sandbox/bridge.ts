// What every kata's bridge (spec/NN-name/bridge.ts) calls at load: the kata, in its sandbox, for
// this spec file. Kept apart from client.ts, which the grader's own process uses too and which
// must not load the test runner.
//
// The client is loaded once per test process: vitest evaluates the specs' modules afresh for every
// spec file (resetModules), and the client's machinery (the codec, the channel) would be compiled
// and warmed up afresh with them. In a graded run the grader bundles it as CommonJS
// (GRADE_SANDBOX_CLIENT), and Node's own require, whose cache vitest leaves alone, loads it here.
import { createRequire } from "node:module";
import { expect } from "vitest";
import { useRealm } from "../realm.ts";
import type * as Client from "./client.ts";
import { SANDBOX_CLIENT_ENV } from "./env.ts";

export type KataLink = Client.KataLink;

async function client(): Promise<typeof Client> {
  const built = process.env[SANDBOX_CLIENT_ENV];
  return built ? (createRequire(built)(built) as typeof Client) : import("./client.ts");
}

export async function loadKata(kataId: string, spec: Omit<Client.KataSpec, "currentTest">): Promise<KataLink> {
  const { connect } = await client();
  const link = await connect(kataId, { ...spec, currentTest: () => expect.getState().currentTestName });
  useRealm(link.realm);
  return link;
}

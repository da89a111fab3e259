// Fails the typecheck when the stub's public API, the reference's and the graded run's bridge drift apart.
import type { Assert, Equal, Exports } from "../support/api-parity.ts";
import type * as Stub from "../../katas/04-stream-assembly/index.ts";
import type * as Ref from "../../solutions/04-stream-assembly/index.ts";
import type * as Bridge from "./bridge.ts";

export type _ = Assert<Equal<typeof Stub, typeof Ref>>;
export type _bridge = Assert<Equal<Exports<typeof Stub>, Exports<typeof Bridge>>>;

// Fails the typecheck when the stub's public API and the reference's drift apart.
import type { Assert, Equal } from "../support/api-parity.ts";
import type * as Stub from "../../katas/04-stream-assembly/index.ts";
import type * as Ref from "../../solutions/04-stream-assembly/index.ts";

export type _ = Assert<Equal<typeof Stub, typeof Ref>>;

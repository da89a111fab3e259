// `tsc` fails here when the stub's public API and the reference's drift apart.
import type { Assert, Equal } from "../support/api-parity.ts";
import type * as Stub from "../../katas/03-agent-loop/index.ts";
import type * as Ref from "../../solutions/03-agent-loop/index.ts";

export type _ = Assert<Equal<typeof Stub, typeof Ref>>;

// Makes `tsc` fail when the stub's public API and the reference's drift apart.
import type { Assert, Equal } from "../support/api-parity.ts";
import type * as Stub from "../../katas/02-schema-validation/index.ts";
import type * as Ref from "../../solutions/02-schema-validation/index.ts";

export type _ = Assert<Equal<typeof Stub, typeof Ref>>;

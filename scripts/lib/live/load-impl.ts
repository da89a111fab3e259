// Loads the chosen implementation of a kata (katas/, solutions/, another checkout) the way the
// grader does, and checks that it exports what live mode calls.
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
// Types only (erased at run time): the stubs in katas/ have exactly the references' API, and
// katas/ is in every checkout, the candidate pack included.
import type * as Kata1 from "../../../katas/01-regex-dispatch/index.ts";
import type * as Kata3 from "../../../katas/03-agent-loop/index.ts";
import type * as Kata4 from "../../../katas/04-stream-assembly/index.ts";
import { PROJECT_ROOT, resolveImplRoot } from "../impl-root.ts";
import { LiveError } from "./errors.ts";

export type Kata1Module = Pick<typeof Kata1, "parseToolCalls" | "dispatch" | "createRegistry" | "calculateTool">;
export type Kata3Module = Pick<typeof Kata3, "runAgent" | "toOpenAIMessages" | "maskSecrets">;
export type Kata4Module = Pick<typeof Kata4, "createAssembler">;

export const KATA_FOLDERS = { 1: "01-regex-dispatch", 3: "03-agent-loop", 4: "04-stream-assembly" } as const;
const NEEDED = {
  1: ["parseToolCalls", "dispatch", "createRegistry", "calculateTool"],
  3: ["runAgent", "toOpenAIMessages", "maskSecrets"],
  4: ["createAssembler"],
} as const;

export interface LoadedImpl<M> {
  module: M;
  /** For messages: "solutions/03-agent-loop". */
  label: string;
}

export async function loadKata(kata: 1, implSpec: string, cwd: string): Promise<LoadedImpl<Kata1Module>>;
export async function loadKata(kata: 3, implSpec: string, cwd: string): Promise<LoadedImpl<Kata3Module>>;
export async function loadKata(kata: 4, implSpec: string, cwd: string): Promise<LoadedImpl<Kata4Module>>;
export async function loadKata(kata: 1 | 3 | 4, implSpec: string, cwd: string): Promise<LoadedImpl<Kata1Module | Kata3Module | Kata4Module>> {
  const root = resolveImplRoot(implSpec, cwd);
  const file = join(root, KATA_FOLDERS[kata], "index.ts");
  const label = (relative(PROJECT_ROOT, join(root, KATA_FOLDERS[kata])) || ".").split("\\").join("/");
  if (!existsSync(file)) throw new LiveError("implementation", `no ${KATA_FOLDERS[kata]}/index.ts under ${root} (--impl ${implSpec})`);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new LiveError("implementation", `${label}/index.ts failed to load: ${(error as Error).message}`);
  }
  const missing = NEEDED[kata].filter((name) => module[name] === undefined);
  if (missing.length > 0) throw new LiveError("implementation", `${label}/index.ts does not export ${missing.join(", ")}`);
  return { module: module as unknown as Kata1Module & Kata3Module & Kata4Module, label };
}

/**
 * Calls a function of the implementation; an exception becomes an explanation that names the
 * function, and, for the stub's "not implemented", says how to see the reference instead.
 */
export function implementationError(label: string, fn: string, error: unknown): LiveError {
  const message = error instanceof Error ? error.message : String(error);
  if (/not implemented/i.test(message)) {
    return new LiveError(
      "implementation",
      `${fn} in ${label} is not implemented yet. Live mode runs your code: finish the kata first ` +
        `(npm run grade), or, in the repository, watch the reference with --impl solutions.`,
    );
  }
  return new LiveError("implementation", `${fn} in ${label} threw: ${error instanceof Error ? `${error.name}: ${message}` : message}`);
}

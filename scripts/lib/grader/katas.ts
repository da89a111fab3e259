// The katas the grader knows: one per `spec/NN-name/` folder.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import { UsageError } from "../cli-args.ts";

export interface Kata {
  /** "01-regex-dispatch" */
  id: string;
  /** 1 */
  number: number;
}

const KATA_FOLDER = /^(\d\d)-[a-z0-9-]+$/;

export function listKatas(root: string = PROJECT_ROOT): Kata[] {
  const specRoot = join(root, "spec");
  if (!existsSync(specRoot)) return [];
  return readdirSync(specRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && KATA_FOLDER.test(entry.name))
    .map((entry) => ({ id: entry.name, number: Number(entry.name.slice(0, 2)) }))
    .sort((a, b) => a.number - b.number);
}

/** `--kata 1,3` or `--kata 01-regex-dispatch`: the chosen katas, in order; all when absent. */
export function selectKatas(all: Kata[], selector: string | undefined): Kata[] {
  if (selector === undefined) return all;
  const chosen: Kata[] = [];
  for (const part of selector.split(",").map((s) => s.trim()).filter(Boolean)) {
    const kata = all.find((k) => k.id === part || k.number === Number(part));
    if (!kata) throw new UsageError(`no kata "${part}" (known: ${all.map((k) => `${k.number} = ${k.id}`).join(", ")})`);
    if (!chosen.includes(kata)) chosen.push(kata);
  }
  return chosen.sort((a, b) => a.number - b.number);
}

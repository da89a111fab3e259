// npm run hint -- N [k] [--reset] [--lang zh-CN]: the hints of kata N, one at a time, in order.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs, usage, UsageError, type FlagSpec } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { listKatas, selectKatas } from "./lib/grader/katas.ts";
import { parseHints, readHintState, writeHintState } from "./lib/hints.ts";

const FLAGS: Record<string, FlagSpec> = {
  reset: { value: false, description: "forget which hints of this kata you have seen" },
  lang: { value: true, valueName: "en|zh-CN", description: "language of the hints (default: from $LANG)" },
};

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("hint", () => run(argv));

function run(argv: string[]): number {
  if (argv.includes("--help")) {
    console.log(usage("npm run hint -- N [k] [--reset] [--lang zh-CN]", "Shows the next hint for kata N (or hint k, once the ones before it are seen).", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  const [kataArg, indexArg, extra] = args.positionals;
  if (kataArg === undefined) throw new UsageError("which kata? for example: npm run hint -- 1");
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  const [kata] = selectKatas(listKatas(), kataArg);
  const lang = (args.flags.get("lang") as string | undefined) ?? (/^zh/i.test(process.env.LANG ?? "") ? "zh-CN" : "en");
  if (lang !== "en" && lang !== "zh-CN") throw new UsageError(`--lang must be en or zh-CN, got ${lang}`);
  const file = join(PROJECT_ROOT, "katas", kata.id, lang === "en" ? "HINTS.md" : "HINTS.zh-CN.md");
  if (!existsSync(file)) throw new UsageError(`kata ${kata.id} has no hints file (${file})`);
  const hints = parseHints(readFileSync(file, "utf8"));
  const state = readHintState();
  // Every line in the hints' language; a command it suggests keeps that language.
  const zh = lang === "zh-CN";
  const again = (k = "") => `npm run hint -- ${kata.number}${k}${zh ? " --lang zh-CN" : ""}`;

  if (args.flags.has("reset")) {
    delete state[kata.id];
    writeHintState(state);
    console.log(zh ? `${kata.id} 的提示已重置：下一条是第 1 条，共 ${hints.length} 条。` : `Hints of ${kata.id} reset: the next one is hint 1 of ${hints.length}.`);
    return 0;
  }
  const seen = state[kata.id] ?? 0;
  let index = seen + 1;
  if (indexArg !== undefined) {
    index = Number(indexArg);
    if (!Number.isInteger(index) || index < 1 || index > hints.length) throw new UsageError(`kata ${kata.id} has hints 1 to ${hints.length}, not "${indexArg}"`);
    if (index > seen + 1) throw new UsageError(`hints come in order: you have seen ${seen}, so the next is ${seen + 1} (npm run hint -- ${kata.number})`);
  }
  if (index > hints.length) {
    console.log(zh ? `${kata.id} 的 ${hints.length} 条提示都已看过。重读某一条：${again(" K")}` : `You have seen all ${hints.length} hints of ${kata.id}. Re-read one with: ${again(" K")}`);
    return 0;
  }
  const hint = hints[index - 1];
  console.log(`${kata.id} · ${hint.title} ${zh ? `（第 ${index} 条，共 ${hints.length} 条）` : `(${index} of ${hints.length})`}\n\n${hint.body}\n`);
  if (index > seen) {
    state[kata.id] = index;
    writeHintState(state);
  }
  console.log(index < hints.length ? (zh ? `还是卡住？下一条：${again()}` : `Stuck still? The next one: ${again()}`) : zh ? "这是最后一条提示。" : "That was the last hint.");
  return 0;
}

if (isEntry(import.meta.url)) process.exitCode = await main(process.argv.slice(2));

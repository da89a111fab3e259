// npm run stages: writes the Stages table of every kata README (en and zh-CN) from the stage plan
// (scripts/lib/stages.ts), between its `<!-- stages:start -->` and `<!-- stages:end -->` lines;
// nothing else in a README changes. Run it after changing the plan; `npm test` fails while a
// table is out of date. `--check` writes nothing and exits 1 when a table would change.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs, usage, UsageError } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { README_FILES, STAGES, withStagesTable, type Lang } from "./lib/stages.ts";

const FLAGS = {
  check: { value: false, description: "write nothing; exit 1 when a README's Stages table is not the plan's" },
};

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("stages", () => run(argv));

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run stages [--check]", "Writes the Stages table of every kata README (en, zh-CN) from scripts/lib/stages.ts.", FLAGS));
    return 0;
  }
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const check = args.flags.has("check");

  const stale: string[] = [];
  for (const kata of Object.keys(STAGES)) {
    for (const lang of Object.keys(README_FILES) as Lang[]) {
      const file = join("katas", kata, README_FILES[lang]);
      const before = readFileSync(join(PROJECT_ROOT, file), "utf8");
      const after = withStagesTable(before, kata, lang, file);
      if (after === before) continue;
      stale.push(file);
      if (!check) writeFileSync(join(PROJECT_ROOT, file), after);
    }
  }
  if (check) {
    for (const file of stale) console.log(`${file}: its Stages table is not the plan's (npm run stages writes it)`);
    return stale.length === 0 ? 0 : 1;
  }
  console.log(stale.length === 0 ? "every Stages table is up to date" : stale.map((file) => `wrote ${file}`).join("\n"));
  return 0;
}

if (isEntry(import.meta.url)) process.exitCode = await main(process.argv.slice(2));

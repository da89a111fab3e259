// npm run manifest: lists every graded test (from the reference run) into spec/manifest.json.
// Run it after adding, renaming or removing a spec; `npm test` fails while it is out of date.
import { writeFileSync } from "node:fs";
import { parseArgs, usage, UsageError } from "./lib/cli-args.ts";
import { listKatas } from "./lib/grader/katas.ts";
import { buildManifest, MANIFEST_PATH } from "./lib/grader/manifest.ts";

const argv = process.argv.slice(2);
if (argv.includes("--help")) {
  console.log(usage("npm run manifest", "Lists every graded test of the specs (bank included) into spec/manifest.json.", {}));
  process.exit(0);
}
try {
  const args = parseArgs(argv, {});
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
} catch (error) {
  console.error(`manifest: ${(error as Error).message}`);
  process.exit(2);
}

const manifest = await buildManifest(listKatas());
writeFileSync(MANIFEST_PATH, JSON.stringify(manifest, null, 2) + "\n");
for (const [kata, entry] of Object.entries(manifest.katas)) console.log(`${kata}: ${entry.tests.length} tests, ${entry.bank.length} in the bank`);

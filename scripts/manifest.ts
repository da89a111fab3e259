// npm run manifest: lists every graded test (from the reference run) into spec/manifest.json, and
// the interviewer guide's follow-up questions (without their answers) into the file the mock
// interview reads in a candidate's pack. Run it after changing a spec or the guide's questions;
// `npm test` fails while either is out of date.
import { writeFileSync } from "node:fs";
import { parseArgs, usage, UsageError } from "./lib/cli-args.ts";
import { isEntry, usageErrorsAsExit2 } from "./lib/cli-main.ts";
import { listKatas } from "./lib/grader/katas.ts";
import { buildManifest, MANIFEST_PATH } from "./lib/grader/manifest.ts";
import { questionsFromGuides, QUESTIONS_FILE } from "./lib/interview/questions.ts";

export const main = (argv: string[]): Promise<number> => usageErrorsAsExit2("manifest", () => run(argv));

async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run manifest", "Lists every graded test of the specs (bank included) into spec/manifest.json, and the guide's follow-up questions for the mock interview.", {}));
    return 0;
  }
  const args = parseArgs(argv, {});
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);

  const manifest = await buildManifest(listKatas());
  writeFileSync(MANIFEST_PATH, JSON.stringify(manifest, null, 2) + "\n");
  for (const [kata, entry] of Object.entries(manifest.katas)) console.log(`${kata}: ${entry.tests.length} tests, ${entry.bank.length} in the bank`);
  const questions = questionsFromGuides();
  if (questions) {
    writeFileSync(QUESTIONS_FILE, JSON.stringify(questions, null, 2) + "\n");
    console.log(`follow-up questions: ${Object.values(questions).map((q) => q.en.length).join(", ")} per kata`);
  }
  return 0;
}

if (isEntry(import.meta.url)) process.exitCode = await main(process.argv.slice(2));

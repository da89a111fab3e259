// npm run manifest: lists every graded test (from the reference run) into spec/manifest.json.
// Run it after adding, renaming or removing a spec; `npm test` fails while it is out of date.
import { writeFileSync } from "node:fs";
import { listKatas } from "./lib/grader/katas.ts";
import { buildManifest, MANIFEST_PATH } from "./lib/grader/manifest.ts";

const manifest = await buildManifest(listKatas());
writeFileSync(MANIFEST_PATH, JSON.stringify(manifest, null, 2) + "\n");
for (const [kata, entry] of Object.entries(manifest.katas)) console.log(`${kata}: ${entry.tests.length} tests, ${entry.bank.length} in the bank`);

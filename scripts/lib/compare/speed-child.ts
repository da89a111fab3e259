// Runs in a child process (the candidate's code may hang): measures one kata's benchmark cases on
// one implementation and prints the measurements as JSON on the last line of stdout.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BenchCases } from "../../../spec/support/bench-case.ts";
import { measure, type Measurement } from "../bench/measure.ts";
import { PROJECT_ROOT } from "../impl-root.ts";

const [kata, implRoot, budget] = process.argv.slice(2);
const casesFile = join(PROJECT_ROOT, "spec", kata, "bench-cases.ts");
const results: Array<Measurement | { name: string; error: string }> = [];
if (existsSync(casesFile)) {
  const { default: cases } = (await import(pathToFileURL(casesFile).href)) as { default: BenchCases<unknown> };
  const impl = await import(pathToFileURL(join(implRoot, kata, "index.ts")).href);
  for (const benchCase of cases(impl)) {
    try {
      results.push(await measure(benchCase, Number(budget) || 200));
    } catch (error) {
      results.push({ name: benchCase.name, error: (error as Error).message ?? String(error) });
    }
  }
}
console.log(JSON.stringify(results));

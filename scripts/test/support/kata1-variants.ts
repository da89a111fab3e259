// Kata 1's reference, copied to a scratch folder with its calculator changed on one kind of input
// ("% 0", which only L2 tests use): the level tests of grade, watch and compare grade it.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../lib/impl-root.ts";

export const KATA1 = "01-regex-dispatch";

const BODIES = {
  /** Never returns: a run that reaches an L2 calculator test hangs, one narrowed to L1 does not. */
  hangs: "while (expression.includes(\"% 0\")) {\n    // never advances\n  }",
  /** Every L1 test passes, some L2 tests fail: the next step is an L2 one. */
  "fails-l2": "if (expression.includes(\"% 0\")) return Number.NaN;",
};

/** Writes the variant to `dir/01-regex-dispatch/` and returns `dir`, an implementation root. */
export function kata1Variant(dir: string, variant: keyof typeof BODIES): string {
  const kata = join(dir, KATA1);
  cpSync(join(PROJECT_ROOT, "solutions", KATA1), kata, { recursive: true });
  const index = join(kata, "index.ts");
  const source = readFileSync(index, "utf8");
  const line = 'export { calculate, calculateTool } from "./calculate.ts";';
  if (!source.includes(line)) throw new Error(`solutions/${KATA1}/index.ts no longer exports calculate as expected`);
  writeFileSync(index, source.replace(line, [
    'export { calculateTool } from "./calculate.ts";',
    'import { calculate as reference } from "./calculate.ts";',
    "export function calculate(expression: string): number {",
    `  ${BODIES[variant]}`,
    "  return reference(expression);",
    "}",
  ].join("\n")));
  return dir;
}

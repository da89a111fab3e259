// The source of a test, for the report's `test_code`: found by its title in its spec file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

const MAX_LINES = 40;
const sources = new Map<string, string[]>();

function linesOf(file: string): string[] {
  let lines = sources.get(file);
  if (!lines) {
    const path = join(PROJECT_ROOT, file);
    lines = existsSync(path) ? readFileSync(path, "utf8").split("\n") : [];
    sources.set(file, lines);
  }
  return lines;
}

/**
 * From the line that names the test to the line where its call's brackets close. A title built
 * at run time (a loop over data) is not found literally: then the report says where to look.
 */
export function testCode(file: string, fullName: string): string {
  const title = fullName.split(" > ").at(-1) ?? fullName;
  const lines = linesOf(file);
  const start = lines.findIndex((line) => line.includes(JSON.stringify(title).slice(1, -1)) || line.includes(`'${title}'`));
  if (start === -1) return `// generated test: see ${file}`;
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length && i < start + MAX_LINES; i++) {
    for (const ch of lines[i]) {
      if (ch === "(" || ch === "{" || ch === "[") {
        depth++;
        opened = true;
      } else if (ch === ")" || ch === "}" || ch === "]") depth--;
    }
    if (opened && depth <= 0) return lines.slice(start, i + 1).join("\n");
  }
  return lines.slice(start, start + MAX_LINES).join("\n");
}

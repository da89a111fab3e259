// What a pack's documents name that the pack does not hold. A candidate who reads "run `npm run
// compare`" or "see `solutions/`" in a pack without them is misled; this finds every such name.
//
// Checked in each document (README*, katas/*/README*, katas/*/HINTS*, docs/*):
// - commands: every `npm run X` and `npm test`, anywhere in the text: X must be a script of the
//   pack's package.json;
// - links: every relative Markdown link must reach a file or folder of the pack;
// - paths in code (inline `code` and fenced blocks): a word that names a file or folder of the
//   project (relative to the document, to the root, or a bare file name) must name one the pack has.
//   Words the project does not have (`results.json`, `/items/0`, `.grade/`, written at run time)
//   are not paths of the project and are left alone.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, normalize } from "node:path";

export interface MissingReference {
  document: string;
  line: number;
  name: string;
  kind: "command" | "link" | "path";
}

/** Every file of a folder and every folder on the way, as relative paths (node_modules skipped). */
export function pathsUnder(root: string, under = ""): string[] {
  return readdirSync(join(root, under)).flatMap((name) => {
    const path = under === "" ? name : `${under}/${name}`;
    if (name === "node_modules" || name === ".git") return [];
    return statSync(join(root, path)).isDirectory() ? [path, ...pathsUnder(root, path)] : [path];
  });
}

/** A list of files, with every folder that holds one added. */
export function withFolders(files: readonly string[]): Set<string> {
  const paths = new Set<string>();
  for (const file of files) {
    for (let path = file; path !== "." && path !== ""; path = dirname(path)) paths.add(path);
  }
  return paths;
}

export function packDocuments(packPaths: ReadonlySet<string>): string[] {
  return [...packPaths].filter((p) => /^(README[^/]*|katas\/[^/]+\/(README|HINTS)[^/]*|docs\/[^/]+)\.md$/.test(p)).sort();
}

const COMMAND = /\bnpm\s+(?:run(?:-script)?\s+([\w:.-]+)|(test)\b)/g;
const LINK = /\]\(([^)\s]+)\)/g;
const INLINE_CODE = /`([^`\n]+)`/g;

/** The words of a piece of code that may be paths: split on spaces and `=`, quotes and brackets trimmed. */
function words(code: string): string[] {
  return code
    .split(/[\s=]+/)
    .map((word) => word.replace(/^[("'<[{]+|[)"'>\]},;:.]+$/g, ""))
    .filter((word) => /^[\w.@-][\w.@/-]*$/.test(word) && /[a-z]/i.test(word));
}

export function missingReferences(packRoot: string, projectPaths: ReadonlySet<string>): MissingReference[] {
  const packPaths = new Set(pathsUnder(packRoot));
  const scripts = new Set(Object.keys((JSON.parse(readFileSync(join(packRoot, "package.json"), "utf8")) as { scripts: object }).scripts));
  const packNames = new Set([...packPaths].map((p) => basename(p)));
  const projectNames = new Set([...projectPaths].map((p) => basename(p)));
  const missing: MissingReference[] = [];

  for (const document of packDocuments(packPaths)) {
    const folder = dirname(document);
    const clean = (path: string) => normalize(path).replace(/\/+$/, "");
    const inPack = (path: string) => path === "." || packPaths.has(path);
    /** A code word names something the project has and the pack lacks. */
    const lacks = (word: string): boolean => {
      const tries = [clean(join(folder, word)), clean(word)];
      if (tries.some(inPack)) return false;
      if (tries.some((p) => projectPaths.has(p))) return true;
      // A bare file name (`parse.spec.ts`, `interviewer-guide.md`) is judged by its name alone.
      if (!word.includes("/")) return /\.\w+$/.test(word) && projectNames.has(word) && !packNames.has(word);
      // A pattern such as `solutions/NN-name/`: judged by the longest part the project has.
      for (const path of tries) {
        let prefix = dirname(path);
        while (prefix !== "." && !projectPaths.has(prefix)) prefix = dirname(prefix);
        if (prefix !== "." && !inPack(prefix)) return true;
      }
      return false;
    };

    let fenced = false;
    readFileSync(join(packRoot, document), "utf8").split("\n").forEach((text, index) => {
      const line = index + 1;
      const report = (name: string, kind: MissingReference["kind"]) => missing.push({ document, line, name, kind });
      for (const [, run, test] of text.matchAll(COMMAND)) {
        const name = run ?? test;
        if (!scripts.has(name)) report(`npm ${run ? "run " : ""}${name}`, "command");
      }
      if (/^\s*(```|~~~)/.test(text)) {
        fenced = !fenced;
        return;
      }
      const code = fenced ? [text] : [...text.matchAll(INLINE_CODE)].map((m) => m[1]);
      for (const word of code.flatMap(words)) if (lacks(word)) report(word, "path");
      if (fenced) return;
      for (const [, target] of text.replace(INLINE_CODE, "").matchAll(LINK)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
        const path = clean(join(folder, decodeURI(target.split("#")[0])));
        if (!inPack(path)) report(target, "link");
      }
    });
  }
  return missing;
}

export function describeMissing(missing: readonly MissingReference[]): string {
  return missing.map((m) => `${m.document}:${m.line}: names ${m.kind} ${m.name}, which the pack does not have`).join("\n");
}

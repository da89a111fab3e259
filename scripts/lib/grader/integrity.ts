// What the grader tells an interviewer about the graded code's honesty, beside its score:
// - refused: what the graded code reached for and was not given (an import outside its kata, a
//   module outside the sealed workspace); the kata scores 0;
// - tampered: what the run's canaries or its verdict channel saw of a forgery; the kata scores 0;
// - notes: what a reader should look at in the source (names of the test runner's internals,
//   environment variables, /proc, paths outside the kata, ...); they change no score.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface Integrity {
  refused: string[];
  tampered: string[];
  notes: string[];
}

export const emptyIntegrity = (): Integrity => ({ refused: [], tampered: [], notes: [] });

/** A kata whose score cannot be trusted: refused or tampered. */
export const untrusted = (integrity: Integrity | undefined): boolean => !!integrity && integrity.refused.length + integrity.tampered.length > 0;

const SUSPICIOUS: Array<[RegExp, string]> = [
  [/__vitest\w*|\bvitest\b|\bjest\b|\bchai\b|matchers-object|expect-global|\bonTaskUpdate\b|\bfast-check\b/, "names the test runner or its internals"],
  [/\bprocess\s*(?:\.\s*env\b|\[)|\bGRADE_\w+|\bKATA_IMPL\b|\bFC_SEED\b/, "reads environment variables"],
  [/\/proc\b/, "names /proc"],
  // The web platform's own objects on globalThis are ordinary; anything else there is the runner's.
  [/\bglobalThis\b(?!\s*\.\s*(?:crypto|structuredClone|queueMicrotask|setTimeout|clearTimeout|performance|TextEncoder|TextDecoder|AbortController|AbortSignal|URL)\b)|\bglobal\s*[.[]/, "touches the global object"],
  [/\bSymbol\s*\.\s*for\s*\(/, "looks up a symbol shared across modules"],
  [/\bprocess\s*\.\s*(?:exit|kill|on|once|binding|getBuiltinModule|dlopen|chdir|ppid|stdout|stderr|send)\b/, "controls or inspects the process"],
  [/\beval\s*\(|\bFunction\s*\(|\bconstructor\s*\.\s*constructor\b/, "compiles code at run time"],
  [/\bimport\s*\.\s*meta\b/, "reads import.meta"],
  [/["'`]node:|\bchild_process\b|\bworker_threads\b/, "names a Node built-in module"],
  [/["'`](?:\.\.\/|\/(?:[\w.-]+\/)+)|\bsolutions\/|\bspec\/|manifest\.json|\.grade\//, "names a path outside the kata"],
  // No kata reads or writes a file, or talks to the network: a forgery that reads the transformed
  // specs, or sends the bank away, has to.
  [/\b(?:readFile|readdir|writeFile|appendFile|copyFile|mkdir|unlink|symlink|rename)(?:Sync)?\s*\(|\b(?:cp|open|stat|lstat|rm|link)Sync\s*\(|\bcreate(?:Read|Write)Stream\b/, "reads or writes files"],
  [/\bfetch\s*\(|\bWebSocket\b|\bXMLHttpRequest\b|\bEventSource\b/, "uses the network"],
];

/** Comments say nothing about what code does; a note on one would be noise. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const MAX_NOTES = 20;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    if (stat.isDirectory()) return name === "node_modules" ? [] : sourceFiles(path);
    return /\.(?:[cm]?[jt]s|json)$/.test(name) ? [path] : [];
  });
}

/** One line per suspicious line of the kata's source: "01-regex-dispatch/index.ts:3: names /proc". */
export function sourceNotes(kataFolder: string, label: string): string[] {
  const notes: string[] = [];
  for (const file of sourceFiles(kataFolder).sort()) {
    const lines = withoutComments(readFileSync(file, "utf8")).split("\n");
    lines.forEach((line, i) => {
      for (const [pattern, what] of SUSPICIOUS) {
        if (pattern.test(line)) notes.push(`${label}/${relative(kataFolder, file).split("\\").join("/")}:${i + 1}: ${what}: ${line.trim().slice(0, 100)}`);
      }
    });
  }
  return notes.length <= MAX_NOTES ? notes : [...notes.slice(0, MAX_NOTES), `... and ${notes.length - MAX_NOTES} more`];
}

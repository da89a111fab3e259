// Turns a kata folder into the one JavaScript file its sandbox loads, in the grader's own process:
// no loader and no transformer ever runs beside graded code. On the way, the kata rule "a kata
// imports only its own files" is checked on the imports the code writes as text (a package, a
// `node:` module, a path outside the kata folder: the kata scores 0, and the reason is given).
// Type-only imports vanish with the types and are free. What the rule does not look at, code
// cannot use to get out: the sandbox reads nothing but its own folder (confinement.ts).
//
// Only the kata's source files are bundled: a tsconfig.json, package.json, vite or vitest config,
// .env or test file of the candidate's is neither read nor an error.
import { build, type Plugin } from "esbuild";
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

export interface Refusal {
  /** The file that wrote it, as "NN-name/file.ts". */
  file: string;
  /** What it named ("vitest", "node:fs", "../../solutions/x.ts"). */
  what: string;
}

export const KATA_RULE = "a kata may import only its own files";

export const refusalLine = (r: Refusal): string => `${r.file} imports '${r.what}': ${KATA_RULE}`;

export interface KataBundle {
  /** The bundled kata, when it built. */
  file?: string;
  refused: Refusal[];
  /** Why it did not build (a syntax error, with file, line and column). */
  error?: string;
  /** What the copy left out, and why (symbolic links, nested node_modules). */
  skipped: string[];
  /** The kata's files the bundle holds (index.ts and what it imports), as paths in the kata folder. */
  sources?: string[];
}

const SOURCE = /\.(?:[cm]?[jt]s|json)$/;
const NOT_SOURCE = /^(?:package(?:-lock)?\.json|tsconfig(?:\.[\w-]+)?\.json|jsconfig\.json|(?:vite|vitest)(?:\.[\w-]+)?\.config\.[cm]?[jt]s)$|\.(?:spec|test)\.[cm]?[jt]s$/;

/**
 * What a bundle that cannot be graded costs, in the words every report uses (grade, watch): a
 * refused import scores the kata 0, a kata that does not build fails every test. Undefined when
 * the bundle can run.
 */
export function bundleVerdict(kataId: string, bundle: Pick<KataBundle, "refused" | "error">): { problem: string; why: string; status: "fail" | "error" } | undefined {
  if (bundle.refused.length > 0) {
    const first = refusalLine(bundle.refused[0]);
    return { problem: `scored 0: import refused: ${first}`, why: `not counted: import refused: ${first}`, status: "fail" };
  }
  if (bundle.error) return { problem: `${kataId} failed to load: ${bundle.error}`, why: `the kata did not build: ${bundle.error}`, status: "error" };
  return undefined;
}

/** The kata's own source files, copied: regular files only, so a link cannot point elsewhere. */
function copySources(from: string, to: string, skipped: string[], base = from): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    const rel = relative(base, path).split(sep).join("/");
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) skipped.push(`${rel}: a symbolic link (not copied: a kata's files are its own)`);
    else if (stat.isDirectory()) {
      if (name === "node_modules") skipped.push(`${rel}: a node_modules folder (not copied: a kata has no dependencies)`);
      else if (!name.startsWith(".")) copySources(path, join(to, name), skipped, base);
    } else if (stat.isFile() && SOURCE.test(name) && !NOT_SOURCE.test(name)) copyFileSync(path, join(to, name));
  }
}

function kataRule(kataId: string, root: string, refused: Refusal[]): Plugin {
  return {
    name: "kata-rule",
    setup(bundle) {
      bundle.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const target = args.path.startsWith("./") || args.path.startsWith("../") ? resolve(args.resolveDir, args.path.split("?")[0]) : undefined;
        if (target !== undefined && target.startsWith(root + sep)) return undefined;
        const file = `${kataId}/${relative(root, args.importer).split(sep).join("/")}`;
        if (!refused.some((r) => r.file === file && r.what === args.path)) refused.push({ file, what: args.path });
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Where a message shows a kata's folder: as a path from the working folder (`katas/01-regex-dispatch`)
 * when it is below it, else whole: either way a path the candidate's terminal and editor open.
 */
export function shownFolder(kataFolder: string): string {
  const rel = relative(process.cwd(), kataFolder).split(sep).join("/");
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : kataFolder.split(sep).join("/");
}

/** Bundles `kataFolder` (its index.ts and what that imports) into `outFile`. */
export async function bundleKata(kataId: string, kataFolder: string, outFile: string): Promise<KataBundle> {
  const skipped: string[] = [];
  const refused: Refusal[] = [];
  const scratch = mkdtempSync(join(tmpdir(), "tuk-kata-"));
  const root = join(scratch, kataId);
  try {
    copySources(kataFolder, root, skipped);
    mkdirSync(dirname(outFile), { recursive: true });
    let sources: string[];
    try {
      const built = await build({
        entryPoints: [join(root, "index.ts")],
        metafile: true,
        outfile: outFile,
        bundle: true,
        format: "esm",
        platform: "node",
        target: "node20",
        logLevel: "silent",
        // The repository's own TypeScript settings, whatever the candidate's folder holds.
        tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
        plugins: [kataRule(kataId, root, refused)],
      });
      // metafile paths are relative to the working folder; external imports are not inputs.
      sources = Object.keys(built.metafile.inputs).map((input) => relative(root, resolve(input)).split(sep).join("/"));
    } catch (error) {
      const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }).errors ?? [];
      // The file as the candidate has it (katas/01-regex-dispatch/parse.ts:12:5), not the grader's copy.
      const where = (e: (typeof errors)[number]) => (e.location ? `${shownFolder(kataFolder)}/${relative(root, resolve(e.location.file)).split(sep).join("/")}:${e.location.line}:${e.location.column + 1}: ` : "");
      const text = errors.length > 0 ? errors.slice(0, 3).map((e) => `${where(e)}${e.text}`).join("; ") : (error as Error).message;
      return { refused, skipped, error: text };
    }
    return { file: outFile, refused, skipped, sources };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The sandbox's own program, bundled once per grade. */
export async function bundleRuntime(outFile: string): Promise<void> {
  await bundleOwn("runtime.ts", outFile);
}

/** The specs' side of the sandbox (client.ts), bundled once per grade, as CommonJS: see spec/support/sandbox/bridge.ts. */
export async function bundleClient(outFile: string): Promise<void> {
  await bundleOwn("client.ts", outFile, "cjs");
}

async function bundleOwn(file: string, outFile: string, format: "esm" | "cjs" = "esm"): Promise<void> {
  await build({
    entryPoints: [join(PROJECT_ROOT, "spec", "support", "sandbox", file)],
    outfile: outFile,
    bundle: true,
    format,
    platform: "node",
    target: "node20",
    logLevel: "silent",
  });
}

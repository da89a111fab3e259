// The pack's package.json: only the scripts whose files the pack holds, and only the packages
// that the pack's sources import or its scripts run. The maintainers' tools (Stryker, Playwright,
// the validators the benchmarks race against) stay out of a candidate's `npm install`.

export interface PackageJson {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  [key: string]: unknown;
}

/** What the pack's `npm test` does: says what it is, then grades, so that it is never a silent alias. */
export const PACK_TEST_SCRIPT = `node -e "console.log('npm test grades your katas: it runs npm run grade')" && tsx scripts/grade.ts`;

/** A script stays when every file it names (a token with a slash or a file extension) is in the pack. */
export function scriptRunsInPack(command: string, packed: ReadonlySet<string>): boolean {
  return command
    .split(/\s+/)
    .filter((token) => /\/|\.(ts|json|mjs|js)$/.test(token))
    .every((path) => packed.has(path));
}

/** The executables a script starts: the first word of each `&&`-joined command. */
function executables(command: string): string[] {
  return command.split("&&").map((part) => part.trim().split(/\s+/)[0]);
}

export interface PackageNeeds {
  /** Packages the pack's sources import. */
  imported: ReadonlySet<string>;
  /** For each installed package, the executables it provides (from the lock's `bin`). */
  binaries: ReadonlyMap<string, readonly string[]>;
  /** `compilerOptions.types` of the tsconfig: their @types packages are needed by tsc. */
  tsTypes: readonly string[];
}

export function candidatePackage(pkg: PackageJson, packed: ReadonlySet<string>, needs: PackageNeeds): PackageJson {
  const scripts = Object.fromEntries(Object.entries(pkg.scripts).filter(([name, command]) => name !== "test" && scriptRunsInPack(command, packed)));
  scripts.test = PACK_TEST_SCRIPT;

  const run = new Set(Object.values(scripts).flatMap(executables));
  const needed = (name: string): boolean => {
    if (needs.imported.has(name)) return true;
    // vitest runs on vite, pinned beside it (vitest 4 with vite 8): the pack pins the same one.
    if (name === "vite" && needed("vitest")) return true;
    if ((needs.binaries.get(name) ?? []).some((bin) => run.has(bin))) return true;
    const typed = /^@types\/(.+)$/.exec(name)?.[1];
    return typed !== undefined && needed("typescript") && needs.tsTypes.includes(typed);
  };
  const devDependencies = Object.fromEntries(Object.entries(pkg.devDependencies).filter(([name]) => needed(name)));
  // The maintainers' description promises an interviewer's bank, which a pack does not hold.
  const description = "Hand-write an LLM tool-use runtime without a framework: four graded katas, a candidate's pack.";
  return { ...pkg, description, scripts, devDependencies };
}

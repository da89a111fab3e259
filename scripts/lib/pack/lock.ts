// The pack's package-lock.json: the maintainers' lock with every package removed that none of the
// pack's direct dependencies needs, found by walking the lock's own dependency graph the way Node
// resolves a name (nearest node_modules first). Same versions, same integrity hashes: `npm ci` in
// the pack installs exactly what the maintainers tested, minus what the candidate never runs.

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
  bin?: Record<string, string> | string;
  [key: string]: unknown;
}

export interface Lock {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}

/** Where Node finds `name` when `from` (a lock key such as "node_modules/a/node_modules/b") requires it. */
function resolveIn(lock: Lock, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (base === "") return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut === -1 ? "" : base.slice(0, cut);
  }
}

/** The names an installed package needs: its dependencies, optional ones and required peers. */
function needsOf(entry: LockEntry): string[] {
  const optionalPeer = (name: string) => entry.peerDependenciesMeta?.[name]?.optional === true;
  return [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeer(name)),
  ];
}

/** For every installed package, the executables it provides. */
export function lockBinaries(lock: Lock): Map<string, string[]> {
  const binaries = new Map<string, string[]>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith("node_modules/") || key.lastIndexOf("node_modules/") !== 0 || !entry.bin) continue;
    const name = key.slice("node_modules/".length);
    binaries.set(name, typeof entry.bin === "string" ? [name.split("/").pop()!] : Object.keys(entry.bin));
  }
  return binaries;
}

export function prunedLock(lock: Lock, devDependencies: Record<string, string>): Lock {
  if (lock.lockfileVersion < 2) throw new Error("pack:candidate needs a package-lock.json of lockfileVersion 2 or 3");
  const kept = new Set<string>([""]);
  const queue: string[] = [];
  const visit = (from: string, name: string) => {
    const key = resolveIn(lock, from, name);
    // A missing optional or platform-specific package is not in the lock: npm skips it too.
    if (key && !kept.has(key)) {
      kept.add(key);
      queue.push(key);
    }
  };
  for (const name of Object.keys(devDependencies)) visit("", name);
  while (queue.length > 0) {
    const key = queue.pop()!;
    for (const name of needsOf(lock.packages[key])) visit(key, name);
  }
  const packages = Object.fromEntries(Object.entries(lock.packages).filter(([key]) => kept.has(key)));
  packages[""] = { ...packages[""], devDependencies };
  return { ...lock, packages };
}

// How a sandbox process is confined, decided once per grade and said in every report. The
// confinement is the operating system's and Node's, never code the graded code could reach:
// - Linux with user namespaces (unshare, util-linux): its own user, PID and network namespaces.
//   It sees no other process, so it can signal none, and has only a loopback of its own, down.
//   No root is needed where the kernel lets users make namespaces;
// - everywhere: Node's permission model: it reads only its own folder (the kata, bundled, and the
//   sandbox's program), writes no file, starts no process, thread or native addon; code is never
//   compiled from strings (`eval`, `new Function`: the kata rule, enforced by V8);
// - a heap cap, and time limits (supervisor.mjs) on every call it keeps the specs waiting on.
// Where user namespaces are refused, a grader run as root starts the sandbox as the user "nobody"
// (it can then signal no process of the grader's), and otherwise as the grader's own user: the
// report says which held.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { CONFINEMENT_ENV } from "./env.ts";

export type ConfinementLevel = "namespaces" | "other-user" | "permissions";

export interface Confinement {
  level: ConfinementLevel;
  /** The unshare program, when the level is "namespaces". */
  unshare?: string;
  /** The user and group the sandbox runs as, when the level is "other-user". */
  uid?: number;
  gid?: number;
  /** Node's flag for its permission model (20: experimental). */
  permissionFlag: string;
  heapMb: number;
}

/** What each level guarantees, in the words every report uses. */
export const LEVEL_WORDS: Record<ConfinementLevel, string> = {
  namespaces: "own user, PID and network namespaces + Node's permission model: no other process, no network, reads only the kata",
  "other-user": "another user (nobody) + Node's permission model: reads only the kata, can signal none of the grader's processes, has the network",
  permissions: "Node's permission model only: reads only the kata, but shares the grader's user and network (no user namespaces here)",
};

/** The heap the graded code gets: far more than any kata needs (the specs' largest input is a few MiB). */
export const SANDBOX_HEAP_MB = 512;

function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(delimiter)) {
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The flags unshare is started with: a user, PID and network namespace, and a /proc of its own. */
export const UNSHARE_FLAGS = ["--user", "--map-root-user", "--pid", "--net", "--fork", "--mount-proc", "--kill-child"];

export function detectConfinement(): Confinement {
  const allowed = process.allowedNodeEnvironmentFlags;
  const permissionFlag = allowed.has("--permission") ? "--permission" : "--experimental-permission";
  const base = { permissionFlag, heapMb: SANDBOX_HEAP_MB };
  if (process.platform === "linux" && process.env.GRADE_SANDBOX_LEVEL !== "permissions") {
    const unshare = onPath("unshare");
    if (unshare && spawnSync(unshare, [...UNSHARE_FLAGS, "true"], { stdio: "ignore", timeout: 5000 }).status === 0) {
      return { level: "namespaces", unshare, ...base };
    }
  }
  if (typeof process.getuid === "function" && process.getuid() === 0 && process.env.GRADE_SANDBOX_LEVEL !== "permissions") {
    return { level: "other-user", uid: 65534, gid: 65534, ...base };
  }
  return { level: "permissions", ...base };
}

export interface SandboxLaunch {
  command: string;
  args: string[];
  uid?: number;
  gid?: number;
  env: Record<string, string>;
  /** Its working folder: its own, so that no relative path leads into the project. */
  cwd: string;
}

/** How to start the sandbox's program `entry`, which may read `dir` (its own folder) and nothing else. */
export function sandboxLaunch(confinement: Confinement, dir: string, entry: string): SandboxLaunch {
  const node = [
    confinement.permissionFlag,
    `--allow-fs-read=${dir}/*`,
    `--max-old-space-size=${confinement.heapMb}`,
    "--disallow-code-generation-from-strings",
    "--no-warnings",
    entry,
  ];
  // The graded code sees the time zone and locale the specs see, and nothing else of the grader's.
  const env: Record<string, string> = {};
  for (const name of ["TZ", "LANG", "LC_ALL"]) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  if (confinement.level === "namespaces") return { command: confinement.unshare!, args: [...UNSHARE_FLAGS, process.execPath, ...node], env, cwd: dir };
  return { command: process.execPath, args: node, env, cwd: dir, ...(confinement.level === "other-user" ? { uid: confinement.uid, gid: confinement.gid } : {}) };
}


export function confinementFromEnv(): Confinement {
  const text = process.env[CONFINEMENT_ENV];
  if (text) return JSON.parse(text) as Confinement;
  return detectConfinement();
}

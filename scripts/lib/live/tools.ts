// The demo tools of live mode, shared by kata 1 and kata 3 (each kata wraps them in its own
// tool shape). Everything is local and canned: no tool ever touches the network, and the one
// "dangerous" tool only pretends, so a demo can never do harm.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateArithmetic } from "./arith.ts";

/** The folder `read_file` serves when `--sandbox` is not given: a few files kept for the demo. */
export const DEFAULT_SANDBOX = join(dirname(fileURLToPath(import.meta.url)), "sandbox");

/** Most characters `read_file` returns (the loop truncates further to its own budget). */
const MAX_FILE_CHARS = 16_000;

interface Forecast {
  city: string;
  condition: string;
  temperature_c: number;
  humidity: number;
  wind_kmh: number;
}

// Canned data: the same answer every time, so a recorded run replays exactly.
const FORECASTS: Forecast[] = [
  { city: "Beijing", condition: "sunny", temperature_c: 3, humidity: 25, wind_kmh: 14 },
  { city: "Shanghai", condition: "light rain", temperature_c: 11, humidity: 82, wind_kmh: 9 },
  { city: "Shenzhen", condition: "cloudy", temperature_c: 21, humidity: 70, wind_kmh: 6 },
  { city: "Hangzhou", condition: "overcast", temperature_c: 9, humidity: 77, wind_kmh: 7 },
  { city: "London", condition: "drizzle", temperature_c: 8, humidity: 88, wind_kmh: 18 },
  { city: "New York", condition: "clear", temperature_c: 4, humidity: 45, wind_kmh: 20 },
  { city: "San Francisco", condition: "fog", temperature_c: 13, humidity: 80, wind_kmh: 12 },
  { city: "Tokyo", condition: "sunny", temperature_c: 12, humidity: 50, wind_kmh: 8 },
];
const CITY_ALIASES: Record<string, string> = {
  北京: "Beijing", 上海: "Shanghai", 深圳: "Shenzhen", 杭州: "Hangzhou", 伦敦: "London",
  纽约: "New York", 旧金山: "San Francisco", 东京: "Tokyo", nyc: "New York", sf: "San Francisco",
};

export function weatherLookup(city: unknown, date: unknown = "today"): Forecast & { date: string; source: string } {
  if (typeof city !== "string" || city.trim() === "") throw new TypeError("city must be a non-empty string");
  const wanted = city.trim();
  const alias = CITY_ALIASES[wanted] ?? CITY_ALIASES[wanted.toLowerCase()];
  const found = FORECASTS.find((f) => f.city.toLowerCase() === (alias ?? wanted).toLowerCase());
  if (!found) {
    throw new RangeError(`no weather data for ${JSON.stringify(wanted)}; known cities: ${FORECASTS.map((f) => f.city).join(", ")}`);
  }
  if (date !== undefined && date !== null && typeof date !== "string") throw new TypeError("date must be a string");
  return { ...found, date: typeof date === "string" && date.trim() !== "" ? date.trim() : "today", source: "canned demo data" };
}

export function calculator(expression: unknown): { expression: string; value: number } {
  if (typeof expression !== "string") throw new TypeError("expression must be a string");
  return { expression, value: evaluateArithmetic(expression) };
}

/** Thrown by `readSandboxFile` when a path leaves the sandbox or names nothing readable. */
export class SandboxError extends Error {
  override name = "SandboxError";
}

/** The files of the sandbox (relative, `/`-separated, sorted), at most `limit` of them. */
export function listSandbox(sandbox: string, limit = 50): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= limit) return;
      if (entry.name.startsWith(".")) continue;
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  if (existsSync(sandbox)) walk(sandbox, "");
  return out;
}

/**
 * Reads one file under `sandbox`, read-only. Refused: absolute paths, drive letters, any `..`
 * segment, hidden files, and anything whose real path (symlinks followed) is outside the sandbox.
 * An empty path or "." lists the files instead.
 */
export function readSandboxFile(sandbox: string, path: unknown): { path: string; content?: string; files?: string[]; truncated?: boolean } {
  if (typeof path !== "string") throw new TypeError("path must be a string");
  const wanted = path.trim();
  if (wanted === "" || wanted === "." || wanted === "./") return { path: ".", files: listSandbox(sandbox) };
  const segments = wanted.split(/[\\/]+/);
  if (isAbsolute(wanted) || /^[A-Za-z]:/.test(wanted) || wanted.startsWith("\\") || wanted.startsWith("~")) {
    throw new SandboxError(`refused: ${JSON.stringify(wanted)} is not a path relative to the sandbox`);
  }
  if (segments.includes("..")) throw new SandboxError(`refused: ${JSON.stringify(wanted)} leaves the sandbox ("..")`);
  if (segments.some((s) => s.startsWith(".") && s !== ".")) throw new SandboxError(`refused: hidden files are not served`);
  if (wanted.includes("\0")) throw new SandboxError("refused: the path holds a NUL character");

  const root = realpathSync(sandbox);
  const target = resolve(root, ...segments.filter((s) => s !== "" && s !== "."));
  if (!existsSync(target)) throw new SandboxError(`no file ${JSON.stringify(wanted)} in the sandbox; files: ${listSandbox(sandbox).join(", ")}`);
  // A symlink inside the sandbox may point anywhere: judge the real path, not the written one.
  const real = realpathSync(target);
  const rel = relative(root, real);
  if (rel.startsWith("..") || isAbsolute(rel)) throw new SandboxError(`refused: ${JSON.stringify(wanted)} resolves outside the sandbox`);
  if (lstatSync(real).isDirectory()) {
    const prefix = rel.split(sep).join("/");
    return { path: prefix, files: listSandbox(real).map((f) => `${prefix}/${f}`) };
  }
  if (!statSync(real).isFile()) throw new SandboxError(`refused: ${JSON.stringify(wanted)} is not a regular file`);
  const text = readFileSync(real, "utf8");
  const shown = rel.split(sep).join("/");
  return text.length > MAX_FILE_CHARS
    ? { path: shown, content: text.slice(0, MAX_FILE_CHARS), truncated: true }
    : { path: shown, content: text };
}

/** The dangerous tool. It never sends anything: the demo is about the approval in front of it. */
export function sendEmail(to: unknown, subject: unknown, body: unknown): { status: string; to: string; subject: string; chars: number } {
  if (typeof to !== "string" || !to.includes("@")) throw new TypeError("to must be an e-mail address");
  if (typeof subject !== "string") throw new TypeError("subject must be a string");
  if (typeof body !== "string") throw new TypeError("body must be a string");
  return { status: "queued (demo: nothing is really sent)", to, subject, chars: body.length };
}

/** What the model is told about each tool: shared by the kata 3 definitions and the kata 1 prompt. */
export const TOOL_DOCS = {
  get_weather: "Current weather for a city (canned demo data). Known cities: " + FORECASTS.map((f) => f.city).join(", ") + ".",
  calculate: "Evaluates arithmetic: numbers, + - * / % ** and parentheses, e.g. (17.5 * 4) + 3.",
  read_file: "Reads a text file from the read-only sandbox folder, by a path relative to it. An empty path lists the files.",
  send_email: "Sends an e-mail. Dangerous: the user is asked to approve every call.",
} as const;

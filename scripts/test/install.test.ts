// `npm ci` in the repository is quiet on the Node that runs it: no package whose engines exclude it
// (npm's EBADENGINE warnings, 240 lines with Stryker 10 on Node 20) and no install script that
// package.json's allowScripts does not name (npm 11's "not yet covered by allowScripts").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { nodeSatisfies } from "../lib/install/node-range.ts";

interface LockPackage {
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
  optional?: boolean;
}

const json = <T>(file: string) => JSON.parse(readFileSync(join(PROJECT_ROOT, file), "utf8")) as T;
const lock = json<{ packages: Record<string, LockPackage> }>("package-lock.json");
const pkg = json<{ engines: { node: string }; allowScripts?: Record<string, boolean> }>("package.json");
const nameOf = (key: string) => key.replace(/^.*node_modules\//, "");

describe("npm ci", () => {
  test("every package of the lock runs on this Node, as package.json's engines promise", () => {
    expect(nodeSatisfies(pkg.engines.node, process.versions.node)).toBe(true);
    const refused = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== "" && !Array.isArray(entry.engines) && entry.engines?.node !== undefined)
      .filter(([, entry]) => !nodeSatisfies((entry.engines as { node: string }).node, process.versions.node))
      .map(([key, entry]) => `${nameOf(key)}: node ${(entry.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });

  test("every install script in the lock is approved by name in package.json's allowScripts", () => {
    const scripted = Object.entries(lock.packages).filter(([key, entry]) => key !== "" && entry.hasInstallScript).map(([key]) => nameOf(key));
    expect(scripted.length).toBeGreaterThan(0);
    expect(scripted.filter((name) => pkg.allowScripts?.[name] !== true)).toEqual([]);
  });
});

describe("reading an engines range", () => {
  test.each([
    [">=20", "20.20.2", true],
    [">= 18.0", "20.20.2", true],
    ["^20.19.0", "20.20.2", true],
    ["^20.19.0", "20.18.1", false],
    ["^22.18.0 || >=24.11.0", "20.20.2", false],
    [">=22.0.0", "20.20.2", false],
    ["18 || 20 || >=22", "20.20.2", true],
    ["18 || 20 || >=22", "21.0.0", false],
    [">=14.18.0 <=22.0.0", "22.0.1", false],
    ["^20.17.0 || >=22.9.0", "22.9.0", true],
  ])("%s admits %s: %s", (range, node, expected) => {
    expect(nodeSatisfies(range, node)).toBe(expected);
  });

  test("a form it does not know is an error, not a yes", () => {
    expect(() => nodeSatisfies("20.x", "20.20.2")).toThrow(/does not know/);
    expect(() => nodeSatisfies("", "20.20.2")).toThrow(/empty/);
  });
});

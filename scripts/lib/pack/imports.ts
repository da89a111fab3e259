// The npm packages that the pack's own sources import: what its package.json must keep.
import { readFileSync } from "node:fs";
import { join } from "node:path";

// Static imports and exports (`from "x"`), side-effect imports (`import "x"`) and literal dynamic
// imports (`import("x")`). A kata may import no package at all (the grader refuses it), so the
// specs and scripts are where packages come from, and they import them literally.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"'\s]+)["']/g;
const PACKAGE = /^(@[\w.-]+\/)?[\w.-]+(\/[\w./-]*)?$/;

/** "vitest/config" -> "vitest", "@scope/pkg/sub" -> "@scope/pkg"; relative paths, `node:` and aliases -> undefined. */
export function packageName(specifier: string): string | undefined {
  if (!PACKAGE.test(specifier) || specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:") || specifier.startsWith("@impl/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

export function importedPackages(root: string, files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files.filter((f) => /\.(ts|mts|js|mjs)$/.test(f))) {
    for (const match of readFileSync(join(root, file), "utf8").matchAll(SPECIFIER)) {
      const name = packageName(match[1]);
      if (name) names.add(name);
    }
  }
  return names;
}

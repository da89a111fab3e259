// `@impl/NN-name` for the runs that load the kata in the specs' own process (vitest.config.ts:
// `npm run watch`, `npm run spec`, mutation runs). The module it stands for re-exports the kata's
// index.ts whole, with each export the kata's bridge names (spec/NN-name/bridge.ts, the public
// API a graded run forwards) passed through spec/support/noted-export.ts, so that a failure there
// shows the input the test gave, as in a graded run. A module's own exports take precedence over
// its `export *`, so types, classes and anything else the kata exports stay the kata's own.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

const ID = /^@impl\/([\w.-]+)$/;
const PREFIX = "\0tool-use-katas:impl/";

/** The names a kata's bridge takes from the graded code: `kata.export<...>("parseToolCalls")`. */
export function bridgedNames(bridgeSource: string): string[] {
  return [...bridgeSource.matchAll(/\bkata\.export<[^>]*>\(\s*"([\w$]+)"\s*\)/g)].map((m) => m[1]);
}

export function notedImplModule(implIndex: string, names: readonly string[], notedExport: string): string {
  const lines = [
    `export * from ${JSON.stringify(implIndex)};`,
    `import * as kata from ${JSON.stringify(implIndex)};`,
    `import { notedExport } from ${JSON.stringify(notedExport)};`,
    ...names.map((name) => `export const ${name} = notedExport(${JSON.stringify(name)}, kata.${name});`),
  ];
  return lines.join("\n") + "\n";
}

export function notedImpl(implRoot: string, projectRoot: string): Plugin {
  return {
    name: "tool-use-katas:noted-impl",
    enforce: "pre",
    resolveId(id) {
      const match = ID.exec(id);
      return match ? PREFIX + match[1] : undefined;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return undefined;
      const kataId = id.slice(PREFIX.length);
      const index = join(implRoot, kataId, "index.ts");
      const bridge = join(projectRoot, "spec", kataId, "bridge.ts");
      // A kata with no bridge yet (or one being written): its index as it is, nothing noted.
      const names = existsSync(bridge) ? bridgedNames(readFileSync(bridge, "utf8")) : [];
      return notedImplModule(index, names, join(projectRoot, "spec", "support", "noted-export.ts"));
    },
  };
}

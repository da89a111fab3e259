// The kata rule "no dependencies", enforced: code in a graded kata folder may import only files
// inside that same folder. Checked on the module's JavaScript (after TypeScript is stripped, so
// type-only imports, which vanish, are free), by its syntax tree rather than by text, so no
// spelling slips through: a package, a `node:` module, an absolute path, a `..` escape, a computed
// `import(...)`, `require`, or a built-in reached through `process` without an import at all.
import { dirname, resolve, sep } from "node:path";

export interface Refusal {
  /** What the code reached for, as written ("vitest", "../../solutions/x.ts", "import(<computed>)"). */
  what: string;
  reason: string;
}

/** Properties that hand out Node's built-in modules (or native code) without an `import`. */
const BUILTIN_BACKDOORS = new Set(["getBuiltinModule", "binding", "_linkedBinding", "dlopen", "mainModule", "createRequire"]);

interface Node {
  type: string;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && typeof (value as Node).type === "string";

function stringValue(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    const quasis = node.quasis as Array<{ value: { cooked: string } }>;
    return quasis.map((q) => q.value.cooked).join("");
  }
  return undefined;
}

/** The refusal for one specifier written in `file`, or nothing when it names a file of `kataDir`. */
export function checkSpecifier(specifier: string, file: string, kataDir: string): Refusal | undefined {
  const own = "a kata may import only its own files";
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return { what: specifier, reason: own };
  const path = specifier.split("?")[0];
  const target = resolve(dirname(file), path);
  if (!target.startsWith(kataDir + sep)) return { what: specifier, reason: own };
  return undefined;
}

/**
 * Every import-like thing in a module's syntax tree (ESTree, as vite's `parseAst` gives it) that
 * the rule refuses.
 */
export function refusedImports(program: unknown, file: string, kataDir: string): Refusal[] {
  const refusals: Refusal[] = [];
  const visit = (node: Node, parent: Node | undefined, key: string) => {
    switch (node.type) {
      case "ImportDeclaration":
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration": {
        const source = stringValue(node.source);
        if (source !== undefined) {
          const refusal = checkSpecifier(source, file, kataDir);
          if (refusal) refusals.push(refusal);
        }
        break;
      }
      case "ImportExpression": {
        const source = stringValue(node.source);
        if (source === undefined) refusals.push({ what: "import(<computed>)", reason: "a kata may import only its own files, named as plain text" });
        else {
          const refusal = checkSpecifier(source, file, kataDir);
          if (refusal) refusals.push(refusal);
        }
        break;
      }
      case "Identifier": {
        // `require` as a value (called, passed, aliased), not as a property name (`x.require`, `{ require: 1 }`).
        const asPropertyName = parent !== undefined && ((parent.type === "MemberExpression" && key === "property" && !parent.computed) || (parent.type === "Property" && key === "key" && !parent.computed));
        if (node.name === "require" && !asPropertyName) refusals.push({ what: "require", reason: "a kata may import only its own files, with import" });
        break;
      }
      case "MemberExpression": {
        const property = node.property as Node;
        const name = node.computed ? stringValue(property) : property.type === "Identifier" ? (property.name as string) : undefined;
        if (name !== undefined && BUILTIN_BACKDOORS.has(name)) refusals.push({ what: `.${name}`, reason: "a kata may not reach Node's built-in modules" });
        break;
      }
    }
    for (const [childKey, child] of Object.entries(node)) {
      if (Array.isArray(child)) {
        for (const item of child) if (isNode(item)) visit(item, node, childKey);
      } else if (isNode(child)) visit(child, node, childKey);
    }
  };
  if (isNode(program)) visit(program, undefined, "");
  return refusals;
}

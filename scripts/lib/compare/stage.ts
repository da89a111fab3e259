// Puts both sides of a speed comparison in one scratch folder, so that they load the same way.
//
// Where a file lives changes how tsx runs it. A folder whose nearest package.json does not say
// "type": "module" (a copy in /tmp, a checkout without one) holds CommonJS as far as Node is
// concerned, so tsx compiles its `import`s to `require` and every call to an imported function
// goes through a getter (esbuild's `__export`): the same code then ran 1.15-1.2x slower than
// inside this repository (1.65x on kata 1's deep nesting). The esbuild options themselves are the
// same inside and outside the project's tsconfig (checked: identical output). Copying each
// side's kata folder under one package.json that says "type": "module" gives both sides the same
// transform, the same module format and the same kind of path.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface StagedSides {
  /** Roots that hold the kata folder (pass them where an implementation root is expected). */
  yours: string;
  reference: string;
}

export function stageSides(kataId: string, candidateRoot: string, referenceRoot: string, scratch: string): StagedSides {
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, "package.json"), `${JSON.stringify({ private: true, type: "module" })}\n`);
  const sides = { yours: join(scratch, "yours"), reference: join(scratch, "reference") };
  cpSync(join(candidateRoot, kataId), join(sides.yours, kataId), { recursive: true });
  cpSync(join(referenceRoot, kataId), join(sides.reference, kataId), { recursive: true });
  return sides;
}

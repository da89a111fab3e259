// Which groups of the official JSON Schema Test Suite the kata's validator must pass: those whose
// schema uses only the kata's keyword subset. Decided by walking each schema, never by name.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const SUITE_DIR = fileURLToPath(new URL("../data/json-schema-test-suite/draft2020-12/", import.meta.url));

export interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
export interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}

const VALIDATION = [
  "type", "enum", "const", "format", "minLength", "maxLength", "pattern", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "required", "minItems", "maxItems", "uniqueItems",
];
const ANNOTATIONS = ["description", "title", "default", "examples", "$schema", "$comment"];
const ONE_SCHEMA = ["additionalProperties", "items", "not"];
const SCHEMA_LIST = ["anyOf", "oneOf", "allOf"];
const SCHEMA_MAP = ["properties", "$defs"];
const FORMATS = ["date", "date-time", "email", "uuid"];
/** "#" or "#/$defs/<one segment>": the only $refs the kata resolves. */
const LOCAL_REF = /^#(\/\$defs\/[^/]+)?$/;

/** True when every keyword of `schema`, at every depth, is in the kata's subset. */
export function usesOnlySupportedKeywords(schema: unknown): boolean {
  if (typeof schema === "boolean") return true;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  return Object.entries(schema).every(([keyword, value]) => {
    if (VALIDATION.includes(keyword) || ANNOTATIONS.includes(keyword)) {
      return keyword !== "format" || FORMATS.includes(value as string);
    }
    if (keyword === "$ref") return typeof value === "string" && LOCAL_REF.test(value);
    if (ONE_SCHEMA.includes(keyword)) return usesOnlySupportedKeywords(value);
    if (SCHEMA_LIST.includes(keyword)) return Array.isArray(value) && value.every(usesOnlySupportedKeywords);
    if (SCHEMA_MAP.includes(keyword)) return Object.values(value as object).every(usesOnlySupportedKeywords);
    return false;
  });
}

export interface SuiteFile {
  /** Relative to draft2020-12/, e.g. "type.json" or "optional/format/date.json". */
  name: string;
  groups: SuiteGroup[];
}

/** Every suite file, each with only its supported groups (files left with none are dropped). */
export function loadSupportedSuite(): { files: SuiteFile[]; groups: number; tests: number; skippedGroups: number } {
  const names = [
    ...readdirSync(SUITE_DIR).filter((f) => f.endsWith(".json")),
    ...readdirSync(join(SUITE_DIR, "optional/format")).map((f) => `optional/format/${f}`),
  ].sort();
  const files: SuiteFile[] = [];
  let groups = 0;
  let tests = 0;
  let skippedGroups = 0;
  for (const name of names) {
    const all = JSON.parse(readFileSync(join(SUITE_DIR, name), "utf8")) as SuiteGroup[];
    const kept = all.filter((g) => usesOnlySupportedKeywords(g.schema));
    skippedGroups += all.length - kept.length;
    if (kept.length === 0) continue;
    files.push({ name, groups: kept });
    groups += kept.length;
    tests += kept.reduce((n, g) => n + g.tests.length, 0);
  }
  return { files, groups, tests, skippedGroups };
}

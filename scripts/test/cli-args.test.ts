import { describe, expect, test } from "vitest";
import { integerFlag, parseArgs, usage, UsageError, type FlagSpec } from "../lib/cli-args.ts";

const specs: Record<string, FlagSpec> = {
  json: { value: true, description: "" },
  all: { value: false, description: "" },
  seed: { value: true, description: "" },
  only: { value: true, repeatable: true, description: "" },
};

const usageError = (argv: string[]): string => {
  try {
    parseArgs(argv, specs);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`no usage error for ${JSON.stringify(argv)}`);
};

describe("cli-args", () => {
  test("reads --key value, --key=value, switches and positionals", () => {
    const args = parseArgs(["1", "--json", "out.json", "--seed=-5", "--all"], specs);
    expect(args.positionals).toEqual(["1"]);
    expect(args.flags.get("json")).toBe("out.json");
    expect(integerFlag(args, "seed", -10, 10)).toBe(-5);
    expect(args.flags.get("all")).toBe(true);
  });
  test("an unknown flag, a missing value or a bad number is a usage error", () => {
    expect(() => parseArgs(["--jsn", "x"], specs)).toThrow(UsageError);
    expect(() => parseArgs(["--json"], specs)).toThrow(/needs a value/);
    expect(() => parseArgs(["--json", "--all"], specs)).toThrow(/needs a value/);
    expect(() => integerFlag(parseArgs(["--seed", "1.5"], specs), "seed", 0, 9)).toThrow(/integer/);
  });
  test("the messages: an unknown option lists the known ones, a switch takes no value, a missing value is named", () => {
    expect(usageError(["--jsn", "x"])).toBe("unknown option --jsn (known: --json, --all, --seed, --only)");
    // A name that every object has is no flag either.
    expect(usageError(["--constructor"])).toBe("unknown option --constructor (known: --json, --all, --seed, --only)");
    expect(usageError(["--all=yes"])).toBe("--all takes no value");
    expect(usageError(["--json"])).toBe("--json needs a value (VALUE)");
    expect(parseArgs([], { out: { value: true, valueName: "FILE", description: "" } })).toEqual({ flags: new Map(), positionals: [], lists: new Map() });
    expect(() => parseArgs(["--out"], { out: { value: true, valueName: "FILE", description: "" } })).toThrow("--out needs a value (FILE)");
  });
  // util.parseArgs reads the arguments; where its own reading or its strict mode differs from what
  // the scripts had, these say which one holds.
  test("a value may start with one dash, not with two; one given with = is taken as it is", () => {
    // util.parseArgs's strict mode refuses `--seed -5` as ambiguous: here it is the value -5.
    expect(integerFlag(parseArgs(["--seed", "-5"], specs), "seed", -10, 10)).toBe(-5);
    expect(parseArgs(["--json", "-"], specs).flags.get("json")).toBe("-");
    // util.parseArgs would take "--all" (or "--") as --json's value.
    expect(usageError(["--json", "--all"])).toBe("--json needs a value (VALUE)");
    expect(usageError(["--json", "--"])).toBe("--json needs a value (VALUE)");
    expect(parseArgs(["--json=--all", "--seed=", "--only=a=b"], specs).flags).toEqual(new Map([["json", "--all"], ["seed", ""], ["only", "a=b"]]));
  });
  test("-- ends the options: every argument after it is a positional", () => {
    // Before util.parseArgs, a -- was dropped and the flags after it still read.
    const args = parseArgs(["1", "--", "--all", "--jsn", "2"], specs);
    expect(args.positionals).toEqual(["1", "--all", "--jsn", "2"]);
    expect(args.flags.size).toBe(0);
  });
  test("an argument with one dash is an option: none is known, so it is an unknown one; a lone - is a positional", () => {
    // Before util.parseArgs, -x and -5 were positionals (the scripts then refused them as unexpected arguments).
    expect(usageError(["-x"])).toBe("unknown option -x (known: --json, --all, --seed, --only)");
    expect(usageError(["-5"])).toMatch(/^unknown option -5 /);
    // A group of short options: the first is the one named.
    expect(usageError(["-ab"])).toMatch(/^unknown option -a /);
    // A spec's name given with one dash is not that flag.
    expect(usageError(["-all"])).toMatch(/^unknown option -a /);
    expect(parseArgs(["-"], specs).positionals).toEqual(["-"]);
  });
  test("a flag given twice: its last value counts; a repeatable one keeps every value, in order", () => {
    const args = parseArgs(["--json", "a", "--only", "x", "--json=b", "--only=y", "--all", "--all"], specs);
    expect(args.flags).toEqual(new Map<string, string | true>([["json", "b"], ["only", "y"], ["all", true]]));
    expect(args.lists).toEqual(new Map([["only", ["x", "y"]]]));
    expect(parseArgs(["--json", "a"], specs).lists.size).toBe(0);
  });
  test("the usage lists every flag with its value's name, then --help", () => {
    const text = usage("npm run x -- [--json FILE]", "Does x.", { json: { value: true, valueName: "FILE", description: "write the results to FILE" }, all: { value: false, description: "every test" } });
    expect(text).toBe(
      [
        "Does x.",
        "",
        "Usage: npm run x -- [--json FILE]",
        "",
        "Options:",
        "  --json FILE            write the results to FILE",
        "  --all                  every test",
        "  --help                 show this help",
      ].join("\n"),
    );
    // With no flag of its own, --help follows Options: directly (it used to after an empty line).
    expect(usage("npm run y", "Does y.", {})).toBe("Does y.\n\nUsage: npm run y\n\nOptions:\n  --help                 show this help");
  });
});

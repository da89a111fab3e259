import { describe, expect, test } from "vitest";
import { integerFlag, parseArgs, UsageError, type FlagSpec } from "../lib/cli-args.ts";

const specs: Record<string, FlagSpec> = {
  json: { value: true, description: "" },
  all: { value: false, description: "" },
  seed: { value: true, description: "" },
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
});

// The scripts' argv parser, on Node's util.parseArgs: it splits the arguments (`--flag`,
// `--key value`, `--key=value`, positionals, `--` after which every argument is a positional, `-x`
// an option). What this file adds, and why util.parseArgs alone does not serve:
// - the checks, with messages of ours: util.parseArgs runs here with strict: false and hands over
//   its tokens, because its strict errors name neither the known flags (an unknown one lists them
//   here, so a typo never runs silently) nor a flag's value (`--json needs a value (FILE)`);
// - a value may start with one dash (`--seed -5`), which strict mode refuses as ambiguous, but not
//   with two (`--json --all` is a missing value, not the value "--all");
// - the result as Maps (`flags`: the last value of each flag, `lists`: every value of a repeatable
//   one, in order), which the scripts read, and the usage text written from the same specs.
import { parseArgs as splitArgs } from "node:util";
import { columns } from "./table.ts";

export interface FlagSpec {
  /** Takes a value (`--json out.json`) or is a boolean switch (`--bank`). */
  value: boolean;
  description: string;
  valueName?: string;
  /** May be given more than once (`--only a --only b`): every value is kept, in order, in `lists`. */
  repeatable?: boolean;
}

export interface ParsedArgs {
  /** The last value of each flag given. */
  flags: Map<string, string | true>;
  positionals: string[];
  /** Every value of each repeatable flag given, in order. */
  lists: Map<string, string[]>;
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], specs: Record<string, FlagSpec>): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { type: spec.value ? ("string" as const) : ("boolean" as const), multiple: spec.repeatable === true }]),
  );
  const { values, positionals, tokens } = splitArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    // Only the long form names a flag: `-a` is not `--a` (the specs declare no short ones).
    const spec = token.rawName === `--${token.name}` && Object.hasOwn(specs, token.name) ? specs[token.name] : undefined;
    if (!spec) {
      const known = Object.keys(specs).map((k) => `--${k}`).join(", ");
      throw new UsageError(`unknown option ${token.rawName} (known: ${known})`);
    }
    if (!spec.value) {
      if (token.value !== undefined) throw new UsageError(`--${token.name} takes no value`);
    } else if (token.value === undefined || (!token.inlineValue && token.value.startsWith("--"))) {
      throw new UsageError(`--${token.name} needs a value (${spec.valueName ?? "VALUE"})`);
    }
  }
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (const [name, value] of Object.entries(values) as [string, string | true | (string | true)[]][]) {
    const all = Array.isArray(value) ? value : [value];
    flags.set(name, all[all.length - 1]);
    if (specs[name].value && specs[name].repeatable) lists.set(name, all as string[]);
  }
  return { flags, positionals, lists };
}

export function usage(command: string, summary: string, specs: Record<string, FlagSpec>): string {
  const rows = Object.entries(specs).map(([name, spec]) => [spec.value ? `--${name} ${spec.valueName ?? "VALUE"}` : `--${name}`, spec.description]);
  const options = columns([...rows, ["--help", "show this help"]], { widths: [22], gap: " ", indent: "  " });
  return `${summary}\n\nUsage: ${command}\n\nOptions:\n${options.join("\n")}`;
}

export function integerFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const raw = args.flags.get(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw === true || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${String(raw)}`);
  }
  return value;
}

// A small argv parser shared by the scripts: `--flag`, `--key value`, `--key=value`, positionals.
// Unknown flags are an error with the list of known ones, so a typo never runs silently.

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
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  const lists = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") continue;
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = specs[name];
    if (!spec) {
      const known = Object.keys(specs).map((k) => `--${k}`).join(", ");
      throw new UsageError(`unknown option --${name} (known: ${known})`);
    }
    if (!spec.value) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq === -1 && value.startsWith("--"))) {
      throw new UsageError(`--${name} needs a value (${spec.valueName ?? "VALUE"})`);
    }
    flags.set(name, value);
    if (spec.repeatable) lists.set(name, [...(lists.get(name) ?? []), value]);
  }
  return { flags, positionals, lists };
}

export function usage(command: string, summary: string, specs: Record<string, FlagSpec>): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const left = spec.value ? `--${name} ${spec.valueName ?? "VALUE"}` : `--${name}`;
    return `  ${left.padEnd(22)} ${spec.description}`;
  });
  return `${summary}\n\nUsage: ${command}\n\nOptions:\n${rows.join("\n")}\n  ${"--help".padEnd(22)} show this help`;
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

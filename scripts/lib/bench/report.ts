// How benchmark results are written: Markdown tables (readable in a terminal as they are, and
// pasted as they are into docs/benchmarks.md), numbers with a sensible precision, the machine.
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { markdownTable } from "../table.ts";

/** A number, possibly with its unit: "9", "0.62x", "4.85 ms", "1.66 µs/call", "49 MiB/s". */
const QUANTITY = /^-?\d[\d,.]*(x| ?[A-Za-zµ/]+)?$/;

/** A Markdown table; columns of quantities (but the first) are right-aligned. */
export function table(headers: string[], rows: string[][]): string {
  const numeric = headers.map((_, i) => i > 0 && rows.every((r) => QUANTITY.test(r[i] ?? "")));
  return markdownTable(headers, rows, { alignRight: (i) => numeric[i], padded: true });
}

/** 3 significant digits, without exponent: 0.00123, 1.23, 123, 12345. */
export function num(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 100) return Math.round(x).toLocaleString("en-US");
  return Number(x.toPrecision(3)).toString();
}

/** A duration given in milliseconds, in the unit that reads best. */
export function duration(ms: number): string {
  if (ms < 0.001) return `${num(ms * 1e6)} ns`;
  if (ms < 1) return `${num(ms * 1000)} µs`;
  if (ms < 999.5) return `${num(ms)} ms`;
  return `${num(ms / 1000)} s`;
}

/** "2.3x": how many times slower (or faster, below 1) the first is than the second. */
export const ratio = (a: number, b: number): string => `${num(a / b)}x`;

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  platform: string;
  /** The 1-minute load average when the run started: other processes share the cores. */
  load: number;
  date: string;
}

export function machine(): Machine {
  let cpu = "unknown CPU";
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? cpu;
  } catch {
    // not Linux: keep the placeholder
  }
  return {
    cpu,
    cores: availableParallelism(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    load: loadavg()[0],
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
  };
}

export const describeMachine = (m: Machine): string =>
  `${m.date} · ${m.cpu} · ${m.cores} cores (nproc) · Node ${m.node} · ${m.platform} · load average ${m.load.toFixed(2)} at the start`;

// npm run compare's speed ratio (your time / reference time) and its spread.
//
// Each of two processes measures both sides in rounds that alternate which side goes first (see
// speed-child.ts); one process starts with your code, the other with the reference. The printed
// ratio is the geometric mean over the processes of (yours / the reference), each side's time
// being the lower quartile of its rounds. The spread is a bootstrap: the processes, and each
// one's rounds, drawn again with replacement 2,000 times, the ratio computed each time, and the
// middle 98% of those ratios kept. It covers 1 when the measurement cannot tell the two apart.
//
// Why the lower quartile: noise in CPU time only ever adds (a garbage collection that lands in a
// round, another process's cache misses), and in an allocating case one round in three ran 2 to
// 30 times slower than the rest, so a median of a few rounds could land on a slow one. The lower
// quartile still counts the collections that every round pays.
//
// Why 98% and not 95%: the self-test requires identical code to read "no measurable
// difference" on every case of a run, on a loaded machine, and a 95% interval would miss 1.0 on
// one case in twenty by chance alone.

/** One process's measurement of a case: each side's time per operation, round by round. */
export interface ProcessRounds {
  yours: number[];
  reference: number[];
}

export interface SpeedRatio {
  /** Your time / the reference's time: below 1 means faster. */
  ratio: number;
  /** The 1st and 99th percentiles of the bootstrap's ratios (widened to include `ratio`). */
  low: number;
  high: number;
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

export function geometricMean(values: readonly number[]): number {
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

/** Each side's time in one process: the lower quartile of its rounds (see above). */
const typical = (rounds: readonly number[]) => quantile(rounds, 0.25);

/** The estimate: the geometric mean over the processes of yours / the reference. */
function estimate(processes: readonly ProcessRounds[]): number {
  return geometricMean(processes.map((p) => typical(p.yours) / typical(p.reference)));
}

/** A small seeded generator (mulberry32): the same rounds always give the same spread. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Resamplings of the bootstrap, and the share of them the spread leaves out on each side. */
export const RESAMPLES = 2000;
export const TAIL = 0.01;

/** Combines the processes' rounds into a ratio and its spread. */
export function speedRatio(processes: readonly ProcessRounds[]): SpeedRatio {
  const usable = processes.filter((p) => p.yours.length > 0 && p.reference.length > 0 && typical(p.reference) > 0 && typical(p.yours) > 0);
  if (usable.length === 0) throw new Error("too fast to time: no round measured a time");
  const ratio = estimate(usable);
  const next = random(1);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  const estimates: number[] = [];
  for (let i = 0; i < RESAMPLES; i++) {
    // Processes drawn again, then each drawn process's rounds: the spread holds both a process's
    // luck and the noise of its rounds.
    const drawn = usable.map(() => pick(usable)).map((p) => ({ yours: p.yours.map(() => pick(p.yours)), reference: p.reference.map(() => pick(p.reference)) }));
    const e = estimate(drawn);
    if (Number.isFinite(e) && e > 0) estimates.push(e);
  }
  if (estimates.length === 0) return { ratio, low: ratio, high: ratio };
  return { ratio, low: Math.min(ratio, quantile(estimates, TAIL)), high: Math.max(ratio, quantile(estimates, 1 - TAIL)) };
}

export const coversOne = (r: SpeedRatio): boolean => r.low <= 1 && r.high >= 1;

const fmt = (x: number) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** "1.62x (1.48-1.77)", or "no measurable difference (0.94-1.05)" when the spread covers 1. */
export function formatRatio(r: SpeedRatio): string {
  const spread = `(${fmt(r.low)}-${fmt(r.high)})`;
  return coversOne(r) ? `no measurable difference ${spread}` : `${fmt(r.ratio)}x ${spread}`;
}

/** The kind of a case: its name up to the first ":" or "," ("adversarial", "BFCL replies as text"). */
export const caseKind = (name: string): string => name.split(/[:,]/)[0].trim();

// A mock interview's record: one line per graded save, kept under .grade/interview/ (gitignored),
// so that the report can draw how the score grew and say when each stage was reached. A session
// scores several series over time: a kata interview its levels, the sprint its katas' core tests.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";
import type { Lang } from "./questions.ts";

export const INTERVIEW_ROOT = join(PROJECT_ROOT, ".grade", "interview");

export interface SessionMeta {
  /** The kata rehearsed, or for the sprint the katas, as the report's title names them. */
  kata: string;
  /** The kata's number, which names the session's folder; absent for the sprint. */
  kataNumber?: number;
  /** The 20-minute sprint (`--sprint`): the series are katas, each scored on its core tests. */
  sprint?: boolean;
  startedAt: string;
  minutes: number;
  /** What the session scores over time: the levels graded (all three unless --level narrowed it), or the sprint's katas. */
  series: string[];
  lang: Lang;
}

export interface SessionPoint {
  /** Milliseconds since the session started. */
  atMs: number;
  /** Percent per series (a level, or in the sprint a kata's core score); null: no test of it in the run. */
  scores: Partial<Record<string, number | null>>;
  passing: number;
  total: number;
  /** Hints shown for the session's katas so far (npm run hint). */
  hints: number;
  /** The closing grade: sealed and whole, as `npm run grade` gives it. */
  final?: boolean;
}

export interface Session {
  dir: string;
  meta: SessionMeta;
  record(point: SessionPoint): void;
  points(): SessionPoint[];
}

/** A new session folder, named by its start time so that sessions sort and never collide. */
export function openSession(meta: SessionMeta, root = INTERVIEW_ROOT): Session {
  const stamp = meta.startedAt.replace(/[:.]/g, "-");
  const dir = join(root, `${stamp}-${meta.sprint ? "sprint" : `kata${meta.kataNumber}`}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "session.json"), JSON.stringify(meta, null, 2) + "\n");
  const log = join(dir, "session.jsonl");
  return {
    dir,
    meta,
    record: (point) => appendFileSync(log, JSON.stringify(point) + "\n"),
    points: () => readPoints(log),
  };
}

export function readPoints(log: string): SessionPoint[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SessionPoint);
}

/** When each series first reached 100% in the session, in ms since its start. */
export function stagesReached(points: SessionPoint[], series: string[]): Partial<Record<string, number>> {
  const reached: Partial<Record<string, number>> = {};
  for (const point of points) {
    for (const key of series) if (reached[key] === undefined && point.scores[key] === 100) reached[key] = point.atMs;
  }
  return reached;
}

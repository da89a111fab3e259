// A mock interview's record: one line per graded save, kept under .grade/interview/ (gitignored),
// so that the report can draw how the score grew and say when each stage was reached.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Level } from "../../../spec/support/test-tag.ts";
import { PROJECT_ROOT } from "../impl-root.ts";
import type { Lang } from "./questions.ts";

export const INTERVIEW_ROOT = join(PROJECT_ROOT, ".grade", "interview");

export interface SessionMeta {
  kata: string;
  kataNumber: number;
  startedAt: string;
  minutes: number;
  /** The levels graded in this session (all three unless --level narrowed it). */
  levels: Level[];
  lang: Lang;
}

export interface SessionPoint {
  /** Milliseconds since the session started. */
  atMs: number;
  /** Percent per level graded (null: no test of that level in the run). */
  levels: Partial<Record<Level, number | null>>;
  passing: number;
  total: number;
  /** Hints shown for this kata so far (npm run hint). */
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
  const dir = join(root, `${stamp}-kata${meta.kataNumber}`);
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

/** When each level first reached 100% in the session, in ms since its start. */
export function stagesReached(points: SessionPoint[], levels: Level[]): Partial<Record<Level, number>> {
  const reached: Partial<Record<Level, number>> = {};
  for (const point of points) {
    for (const level of levels) if (reached[level] === undefined && point.levels[level] === 100) reached[level] = point.atMs;
  }
  return reached;
}

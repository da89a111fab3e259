// One time guidance everywhere. The minutes of a stage (a level of one kata) have one source,
// scripts/lib/stages.ts; the sprint's have theirs, scripts/lib/sprint.ts, and its 20 minutes
// belong to it alone (`npm run interview -- --sprint`: the core tests of three katas). This reads
// every Markdown document of the repository (READMEs, the pack's README templates, the guides,
// the kata READMEs) and fails when one
//
// - gives a level a number of minutes that is neither that stage's own minutes in stages.ts nor
//   the minute it is done by when the stages before it come first ("L1 by minute 30"), for the
//   kata the sentence, its heading or its file is about (or for every kata when it names none);
// - suggests a session length (`--kata N --minutes M --level ...`) other than those stages' sum;
// - gives a sprint scheme minutes ("| 6-13 | ... (kata 2) |" under a sprint heading) other than
//   sprint.ts's;
// - speaks of the sprint's 20 minutes where neither the sentence nor its headings are about the
//   sprint.
//
// The checker reads prose, tables (a row's level, or a column headed by a level) and code lines;
// the tests at the end show it on small texts, so that a reworded document cannot pass by escaping
// it, and count what it verified in the real documents, so that it cannot pass by finding nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "../lib/impl-root.ts";
import { SPRINT_MINUTES, sprintDeadlines, SPRINT } from "../lib/sprint.ts";
import { STAGES } from "../lib/stages.ts";

type Level = "L1" | "L2" | "L3";
const KATAS = Object.keys(STAGES).sort();
const kataOfNumber = (n: number): string | undefined => KATAS.find((id) => Number(id.slice(0, 2)) === n);

/** The figures a document may give for a stage: its own minutes, or the minute it is done by. */
function allowedMinutes(kata: string, level: Level): number[] {
  let total = 0;
  for (const stage of STAGES[kata] ?? []) {
    total += stage.minutes;
    if (stage.level === level) return [stage.minutes, total];
  }
  return [];
}

const SKIPPED_DIRS = new Set(["node_modules", ".git", ".grade", "reports", ".stryker-tmp", "data"]);

/** Every Markdown file of the repository, relative to its root ("docs/interviewer-guide.md"). */
function markdownFiles(dir = PROJECT_ROOT): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...markdownFiles(join(dir, entry.name)));
    } else if (entry.name.endsWith(".md")) files.push(relative(PROJECT_ROOT, join(dir, entry.name)).split(sep).join("/"));
  }
  return files.sort();
}

interface Passage {
  line: number;
  text: string;
  kind: "prose" | "row" | "code" | "heading";
  /** The headings above it, outermost first. */
  headings: string[];
  /** For a table row: the cells of its table's header. */
  header?: string[];
}

const cells = (row: string): string[] => row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());

/** A Markdown text as passages: sentences of paragraphs and list items, table rows, code lines, headings. */
function passages(markdown: string): Passage[] {
  const out: Passage[] = [];
  const headings: string[] = [];
  const lines = markdown.split("\n");
  let fenced = false;
  let paragraph: { line: number; text: string } | undefined;
  let header: string[] | undefined;
  const flush = () => {
    if (!paragraph) return;
    for (const sentence of paragraph.text.split(/(?<=[.!?])\s+(?=[^a-z\s])|(?<=[。！？])/)) {
      if (sentence.trim() !== "") out.push({ line: paragraph.line, text: sentence.trim(), kind: "prose", headings: [...headings] });
    }
    paragraph = undefined;
  };
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (/^\s*(```|~~~)/.test(raw)) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) {
      if (raw.trim() !== "") out.push({ line, text: raw, kind: "code", headings: [...headings] });
      return;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading) {
      flush();
      headings.length = heading[1].length - 1;
      headings[heading[1].length - 1] = heading[2];
      for (let i = 0; i < headings.length; i++) headings[i] ??= "";
      out.push({ line, text: heading[2], kind: "heading", headings: headings.slice(0, -1) });
      return;
    }
    if (/^\s*\|/.test(raw)) {
      flush();
      if (/^\s*\|[\s|:-]+\|\s*$/.test(raw)) return; // the separator under a header
      const next = lines[index + 1] ?? "";
      if (/^\s*\|[\s|:-]+\|\s*$/.test(next)) {
        header = cells(raw);
        out.push({ line, text: raw, kind: "row", headings: [...headings] });
      } else out.push({ line, text: raw, kind: "row", headings: [...headings], header });
      return;
    }
    header = undefined;
    if (raw.trim() === "" || /^\s*<!--.*-->\s*$/.test(raw)) {
      flush();
      return;
    }
    if (/^\s*([-*+]|\d+\.)\s/.test(raw)) flush();
    if (paragraph) paragraph.text += ` ${raw.trim()}`;
    else paragraph = { line, text: raw.trim() };
  });
  flush();
  return out;
}

const SPRINT_WORD = /sprint|冲刺/i;
/** Each scheme of the sprint with the minute it starts at and the minute it is done by. */
const deadlines = sprintDeadlines().map((d, i) => ({ ...d, from: d.byMinute - SPRINT[i].minutes }));
const N = SPRINT_MINUTES;
const TWENTY = new RegExp(`(?<![\\d.])${N}\\s*[-–]?\\s*(?:minutes?|mins?)\\b|\\bminute\\s+${N}\\b|(?<![\\d.])${N}\\s*分钟|--minutes[ =]${N}\\b${N === 20 ? "|\\btwenty[- ]minutes?\\b|二十分钟" : ""}`, "i");
/** "30 min", "+75 minutes", "45-60 minutes", "by minute 30", "30 分钟", "第 30 分钟". */
const MINUTES = /(?:(\d+)\s*(?:-|–|to|到|至)\s*)?\+?(\d+)\s*[-–]?\s*(?:minutes?\b|mins?\b|分钟)|\bminute\s+(\d+)\b/gi;
const LEVEL = /\bL([123])\b/g;
/** A test's tag (`[L1 w1]`, `[L1 w1 core]`) names a test's level, not a stage. */
const TEST_TAG = /\[L[123] w\d+(?: core)?\]/g;

/** The katas a text names: "kata 3", "katas 1, 2 and 4", "katas 1-3", `--kata 2`, "01-regex-dispatch", "第 2 题". */
function katasNamed(text: string): string[] {
  const numbers = new Set<number>();
  for (const m of text.matchAll(/\bkatas?\s+(\d(?:\s*(?:,|and|or|&|-|–|to|、|和)\s*\d)*)/gi)) {
    const list = m[1];
    const range = /^(\d)\s*(?:-|–|to)\s*(\d)$/.exec(list);
    if (range) for (let n = Number(range[1]); n <= Number(range[2]); n++) numbers.add(n);
    else for (const d of list.match(/\d/g) ?? []) numbers.add(Number(d));
  }
  for (const m of text.matchAll(/--kata[ =](\d(?:,\d)*)/g)) for (const d of m[1].split(",")) numbers.add(Number(d));
  for (const m of text.matchAll(/\b0(\d)-[a-z]+-[a-z]+/g)) numbers.add(Number(m[1]));
  for (const m of text.matchAll(/第\s*(\d(?:\s*[、,，和]\s*\d)*)\s*(?:道)?题/g)) for (const d of m[1].match(/\d/g) ?? []) numbers.add(Number(d));
  return [...numbers].map(kataOfNumber).filter((k): k is string => k !== undefined);
}

interface Claim {
  level: Level;
  minutes: number;
  katas: string[];
  /** True when nothing named a kata: the figure must then hold for every kata. */
  everyKata: boolean;
}

function judge(claim: Claim): string | undefined {
  const allowed = claim.katas.map((k) => ({ kata: k, figures: allowedMinutes(k, claim.level) }));
  const holds = claim.everyKata ? allowed.every((a) => a.figures.includes(claim.minutes)) : allowed.some((a) => a.figures.includes(claim.minutes));
  if (holds) return undefined;
  const said = allowed.map((a) => `${a.kata.slice(0, 2)}: ${a.figures[0]} (done by minute ${a.figures[1]})`).join(", ");
  return `${claim.level} in ${claim.minutes} minutes${claim.everyKata ? " (no kata named, so for every kata)" : ""}, but stages.ts gives ${said}`;
}

function levelMinuteClaims(text: string, katasOf: (clause: string) => { katas: string[]; everyKata: boolean }): Claim[] {
  const claims: Claim[] = [];
  const levels = [...text.matchAll(LEVEL)].map((m) => ({ at: m.index, level: `L${m[1]}` as Level }));
  for (const m of text.matchAll(MINUTES)) {
    const figures = [m[1], m[2] ?? m[3]].filter((f): f is string => f !== undefined).map(Number);
    const before = levels.filter((l) => l.at < m.index).at(-1);
    // A level after the figure counts only when it follows at once ("30 minutes for L1", "20 分钟内拿下 L1").
    const after = levels.find((l) => l.at >= m.index + m[0].length && l.at - (m.index + m[0].length) <= 12);
    const level = (before ?? after)?.level;
    if (!level) continue;
    for (const minutes of figures) claims.push({ level, minutes, ...katasOf(text) });
  }
  return claims;
}

export interface Finding {
  line: number;
  text: string;
  problem: string;
}

/** What one document says about time that stages.ts or the sprint contradicts; and how many level-minute figures it verified. */
export function checkDocument(file: string, markdown: string): { findings: Finding[]; verified: number } {
  const findings: Finding[] = [];
  let verified = 0;
  const fileKatas = katasNamed(file);
  for (const passage of passages(markdown)) {
    const say = (problem: string) => findings.push({ line: passage.line, text: passage.text.slice(0, 160), problem });
    const context = [...passage.headings, passage.text].join("\n");

    if (TWENTY.test(passage.text) && !SPRINT_WORD.test(context)) say(`${N} minutes is the sprint's length, and this sentence is not about the sprint`);

    // A row of a sprint's minute plan: "| 6-13 | 2. JSON protocol ... (kata 2) | ...".
    const range = passage.kind === "row" ? /^(\d+)\s*[-–]\s*(\d+)$/.exec(cells(passage.text)[0] ?? "") : null;
    if (range && passage.headings.some((h) => SPRINT_WORD.test(h))) {
      const named = katasNamed(passage.text);
      const scheme = named.length === 1 ? deadlines.find((d) => d.kata === named[0]) : undefined;
      if (!scheme) say(`a row of the sprint's plan that names ${named.length === 0 ? "no kata" : named.length > 1 ? "more than one kata" : `${named[0]}, which the sprint does not have`}`);
      else if (Number(range[1]) !== scheme.from || Number(range[2]) !== scheme.byMinute) say(`the sprint gives ${scheme.kata} minutes ${scheme.from}-${scheme.byMinute} in sprint.ts, not ${range[1]}-${range[2]}`);
      else verified++;
    }

    const text = passage.text.replace(TEST_TAG, "");
    const headingKatas = [...passage.headings].reverse().map(katasNamed).find((k) => k.length > 0) ?? [];
    const katasOf = (...texts: string[]) => {
      for (const t of texts) {
        const named = katasNamed(t);
        if (named.length > 0) return { katas: named, everyKata: false };
      }
      if (headingKatas.length > 0) return { katas: headingKatas, everyKata: false };
      if (fileKatas.length > 0) return { katas: fileKatas, everyKata: false };
      return { katas: KATAS, everyKata: true };
    };

    const claims: Claim[] = [];
    if (passage.kind === "row" && passage.header?.some((h) => /^L[123]$/.test(h))) {
      // A table with a column per level: each cell's figures are that level's, for the row's kata.
      const row = cells(text);
      row.forEach((cell, i) => {
        const level = passage.header![i];
        if (!/^L[123]$/.test(level)) return;
        for (const m of cell.matchAll(/\+?(\d+)/g)) claims.push({ level: level as Level, minutes: Number(m[1]), ...katasOf(row[0]) });
      });
    } else {
      // Prose is read clause by clause; a table row or a code line as a whole.
      const clauses = passage.kind === "prose" || passage.kind === "heading" ? text.split(/[,;，；、]/) : [text];
      for (const clause of clauses) claims.push(...levelMinuteClaims(clause, (c) => katasOf(c, text)));
    }
    for (const claim of claims) {
      const problem = judge(claim);
      if (problem) say(problem);
      else verified++;
    }

    // A suggested session for some levels of a kata lasts as long as those stages.
    const kata = /--kata[ =](\d)\b/.exec(text);
    const minutes = /--minutes[ =](\d+(?:\.\d+)?)\b/.exec(text);
    const levelList = /--level[ =]((?:L?[123],?)+)/.exec(text);
    if (kata && minutes && levelList) {
      const id = kataOfNumber(Number(kata[1]));
      const wanted = new Set(levelList[1].split(",").filter(Boolean).map((l) => `L${l.replace(/^L/, "")}`));
      const sum = (STAGES[id ?? ""] ?? []).filter((s) => wanted.has(s.level)).reduce((t, s) => t + s.minutes, 0);
      if (Number(minutes[1]) !== sum) say(`a session of ${minutes[1]} minutes for ${[...wanted].join(",")} of kata ${kata[1]}, whose stages take ${sum} minutes in stages.ts`);
      else verified++;
    }
  }
  return { findings, verified };
}

describe("time guidance", () => {
  const files = markdownFiles();

  test("the documents are found: READMEs, the pack's templates, the guides, every kata README", () => {
    for (const file of ["README.md", "README.zh-CN.md", "scripts/lib/pack/README.candidate.md", "scripts/lib/pack/README.candidate.zh-CN.md", "docs/interviewer-guide.md", "docs/interviewer-guide.zh-CN.md", "docs/live-mode.md", "docs/live-mode.zh-CN.md"]) {
      expect(files).toContain(file);
    }
    for (const kata of KATAS) expect(files).toContain(`katas/${kata}/README.md`);
  });

  for (const file of files) {
    test(`${file}: every minute figure agrees with scripts/lib/stages.ts, and 20 minutes is the sprint's alone`, () => {
      const { findings } = checkDocument(file, readFileSync(join(PROJECT_ROOT, file), "utf8"));
      expect(findings.map((f) => `${file}:${f.line}: ${f.problem}\n    ${f.text}`)).toEqual([]);
    });
  }

  test("it verifies figures in the real documents: at least every kata README's Stages rows, in both languages", () => {
    let verified = 0;
    for (const file of files.filter((f) => f.startsWith("katas/"))) verified += checkDocument(file, readFileSync(join(PROJECT_ROOT, file), "utf8")).verified;
    expect(verified).toBeGreaterThanOrEqual(KATAS.length * 2 * 3);
    // The guide's run-sheets give every stage of every kata and every scheme of the sprint, in both languages.
    for (const guide of ["docs/interviewer-guide.md", "docs/interviewer-guide.zh-CN.md"]) {
      expect(checkDocument(guide, readFileSync(join(PROJECT_ROOT, guide), "utf8")).verified, guide).toBeGreaterThanOrEqual(KATAS.length * 3 + SPRINT.length);
    }
  });
});

describe("the checker itself", () => {
  const problems = (file: string, text: string) => checkDocument(file, text).findings.map((f) => f.problem);

  test("a stage figure that stages.ts does not give fails; its own minutes and its done-by minute pass", () => {
    const l1 = STAGES["03-agent-loop"][0].minutes;
    const l2 = STAGES["03-agent-loop"][1].minutes;
    expect(problems("x.md", `In kata 3, L1 takes ${l1} minutes.`)).toEqual([]);
    expect(problems("x.md", `In kata 3, L2 is done by minute ${l1 + l2}.`)).toEqual([]);
    expect(problems("x.md", `In kata 3, L1 takes ${l1 + 7} minutes.`)).toHaveLength(1);
    expect(problems("katas/03-agent-loop/README.md", `| L1 | ${l1} min | 1, 2 | the loop | the limits of L3 |`)).toEqual([]);
    expect(problems("katas/03-agent-loop/README.md", `| L1 | ${l1 + 1} min | 1, 2 | the loop | the limits of L3 |`)).toHaveLength(1);
    expect(problems("katas/01-regex-dispatch/README.zh-CN.md", "| L2 | +5 分钟 | 1 | 规则 | 无 |")).toHaveLength(1);
  });

  test("with no kata named, a figure must hold for every kata", () => {
    const figures = new Set(KATAS.map((k) => allowedMinutes(k, "L1")[0]));
    for (const minutes of figures) {
      const holdsEverywhere = KATAS.every((k) => allowedMinutes(k, "L1").includes(minutes));
      expect(problems("x.md", `Reach L1 in ${minutes} minutes.`)).toHaveLength(holdsEverywhere ? 0 : 1);
    }
  });

  test("a table with a column per level is read per kata", () => {
    const row = (n: number, kata: string) => `| kata ${n} | ${STAGES[kata].map((s, i) => `${i === 0 ? "" : "+"}${s.minutes} min`).join(" | ")} |`;
    const table = ["| kata | L1 | L2 | L3 |", "|---|---|---|---|", ...KATAS.map((k) => row(Number(k.slice(0, 2)), k))].join("\n");
    expect(checkDocument("x.md", table)).toEqual({ findings: [], verified: KATAS.length * 3 });
    expect(problems("x.md", table.replace(/\| kata 1 \| \d+ min/, "| kata 1 | 99 min"))).toHaveLength(1);
  });

  test("the sprint's minutes outside the sprint fail, in either language; inside it they pass", () => {
    expect(problems("x.md", `Aim for L1 in the first ${N} minutes.`)).toHaveLength(2);
    expect(problems("x.md", `### ${N}-minute plan\n`)).toHaveLength(1);
    expect(problems("x.md", `争取在前 ${N} 分钟内拿下 L1。`)).toHaveLength(2);
    expect(problems("x.md", `The sprint (\`npm run interview -- --sprint\`) takes ${N} minutes: the core tests of three katas.`)).toEqual([]);
    expect(problems("x.md", `## The ${N}-minute sprint\n\nAt minute ${N} the core tests are graded once more.\n`)).toEqual([]);
    expect(problems("x.md", `冲刺（\`npm run interview -- --sprint\`）共 ${N} 分钟。`)).toEqual([]);
  });

  test("a row of the sprint's plan gives its scheme the minutes sprint.ts gives it", () => {
    const rows = deadlines.map((d) => `| ${d.from}-${d.byMinute} | kata ${Number(d.kata.slice(0, 2))} | its core tests |`);
    const table = (body: string[]) => ["## The sprint", "", "| minute | scheme | what |", "|---|---|---|", ...body].join("\n");
    expect(checkDocument("x.md", table(rows))).toEqual({ findings: [], verified: SPRINT.length });
    const [first] = deadlines;
    expect(problems("x.md", table([`| ${first.from}-${first.byMinute + 1} | kata ${Number(first.kata.slice(0, 2))} | its core tests |`, ...rows.slice(1)]))).toHaveLength(1);
    expect(problems("x.md", table(["| 0-5 | the three schemes |"]))).toHaveLength(1);
  });

  test("a suggested session for some levels lasts as long as their stages", () => {
    const l1 = STAGES["02-schema-validation"][0].minutes;
    expect(problems("x.md", `\`\`\`sh\nnpm run interview -- --kata 2 --minutes ${N} --level 1\n\`\`\`\n`)).toHaveLength(N === l1 ? 0 : 2);
    expect(problems("x.md", `\`\`\`sh\nnpm run interview -- --kata 2 --minutes ${l1} --level 1\n\`\`\`\n`)).toEqual([]);
  });

  test("a test's tag and an interview slot are not stage figures", () => {
    expect(problems("x.md", "Core tests are tagged `[L1 w1 core]`; an interview slot is 45 to 60 minutes.")).toEqual([]);
    expect(problems("x.md", "In an interview slot of 45-60 minutes, reach L1 first.")).toEqual([]);
  });
});

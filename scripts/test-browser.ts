// npm run test:browser: opens the grader's HTML report in a real browser (Debian's chromium,
// driven by playwright-core), checks that the figures it shows are the JSON report's, then that a
// report with a refused and a noted kata shows their badges and Integrity sections,
// and saves screenshots (.grade/browser/report.png, integrity.png) for a person to look at.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { usage } from "./lib/cli-args.ts";
import { isEntry, runAsCommand } from "./lib/cli-main.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { fixtureImplRoot } from "./lib/fixtures/known-bad.ts";
import { htmlReport } from "./lib/grader/report-html.ts";
import { listKatas } from "./lib/grader/katas.ts";
import type { KataResult } from "./lib/grader/kata-result.ts";
import { score } from "./lib/grader/score.ts";
import type { TestResult } from "./lib/grader/test-result.ts";
import { leaderboardHtml } from "./lib/round/html.ts";
import { rowFromResults, rowWithoutResults, type Results, type RoundRow } from "./lib/round/row.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const out = join(PROJECT_ROOT, ".grade", "browser");

/**
 * An implementation root that mixes a reference, a known-bad fixture and a stub, so the chart has
 * every colour. Each kata folder is a copy: the grader refuses a kata that imports from outside
 * its own folder, so a re-export of the reference by path would grade as "refused".
 */
function mixedImplementation(): string {
  const root = join(out, "impl");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const knownBad = join(PROJECT_ROOT, "spec", "fixtures", "known-bad");
  // A fixture kept as a kata folder; fixtureImplRoot gives it its own copy of the reference.
  const flawed = (kata: string) =>
    existsSync(knownBad) ? readdirSync(knownBad).map((f) => join(knownBad, f)).find((dir) => existsSync(join(dir, kata, "index.ts"))) : undefined;
  listKatas().forEach((kata, i) => {
    const fixture = i % 3 === 1 ? flawed(kata.id) : undefined;
    if (fixture) {
      const made = join(out, "fixture");
      rmSync(made, { recursive: true, force: true });
      cpSync(join(fixtureImplRoot(fixture, made), kata.id), join(root, kata.id), { recursive: true });
      return;
    }
    cpSync(join(PROJECT_ROOT, i % 3 === 0 ? "solutions" : "katas", kata.id), join(root, kata.id), { recursive: true });
  });
  return root;
}

/** Text that would become markup if the report did not escape it: it must show as text. */
const INJECTED = `<img src=x id="injected">`;

/**
 * Results as grade-katas.ts returns them for a refused, a noted and a clean kata: cheaper than grading
 * them, and the HTML report reads nothing else.
 */
function integrityRuns(): KataResult[] {
  const tests = (kata: string, distrust?: string): TestResult[] => ["1. task > first", "1. task > second"].map((name) => ({
    kata, file: `spec/${kata}/none.spec.ts`, name, level: "L1", weight: 1, bank: false, taskId: 1,
    ...(distrust ? { status: "fail", summary: distrust, message: distrust } : { status: "pass" }),
  }));
  const refused = "katas/02-schema-validation/index.ts imports 'vitest': a kata may import only its own files";
  const run = (id: string, number: number, integrity: KataResult["integrity"], distrust?: string): KataResult => ({
    kata: { id, number }, tests: tests(id, distrust), problems: distrust ? [distrust.replace(/^not counted: /, "scored 0: ")] : [], hungTests: [], durationMs: 1, integrity,
  });
  return [
    run("02-refused", 2, { refused: [refused], notes: [`02-refused/${INJECTED}: a symbolic link (not copied: a kata's files are its own)`] }, `not counted: import refused: ${refused}`),
    run("03-noted", 3, { refused: [], notes: [`03-noted/${INJECTED}.ts: a symbolic link (not copied: a kata's files are its own)`] }),
    run("04-clean", 4, { refused: [], notes: [] }),
  ];
}

/** The few DOM properties read in the page (the project compiles without the DOM library). */
interface PageElement {
  dataset: Record<string, string | undefined>;
  offsetHeight: number;
  textContent: string | null;
  querySelector(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
}

interface KataFigures {
  kata: string;
  score: number;
  passed: number;
  total: number;
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help")) {
    console.log(usage("npm run test:browser", "Grades a mix of a reference, a known-bad fixture and a stub into an HTML report, opens it in chromium (CHROMIUM_PATH, default /usr/bin/chromium), checks its figures against the JSON report, checks the integrity badges and sections on a report of a refused and a noted kata, checks grade:round's leaderboard page (figures, sorting, chart, report link), and saves screenshots to .grade/browser/ (report.png, integrity.png, leaderboard.png).", {}));
    return 0;
  }
  if (argv.length > 0) {
    console.error(`test:browser: unexpected argument "${argv[0]}" (see --help)`);
    return 2;
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`test:browser: no browser at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
    return 1;
  }
  mkdirSync(out, { recursive: true });
  const impl = mixedImplementation();
  const json = join(out, "report.json");
  const html = join(out, "report.html");
  const graded = spawnSync(process.execPath, [join(PROJECT_ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/grade.ts", "--impl", impl, "--json", json, "--html", html], { cwd: PROJECT_ROOT, encoding: "utf8" });
  if (graded.status !== 0) {
    console.error(graded.stdout, graded.stderr);
    return 1;
  }
  const report = JSON.parse(readFileSync(json, "utf8")) as { score: number; x_katas: KataFigures[] };

  // Loaded here, not at the top: `--help` should not pay for playwright's start-up.
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const failures: string[] = [];
  let checks = 0;
  const check = (ok: boolean, what: string) => {
    checks++;
    if (!ok) failures.push(what);
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    // The page must need nothing from the network: any request but the file itself is a defect.
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(html).href);
    const shown = await page.$$eval("section.kata", (elements) =>
      (elements as unknown as PageElement[]).map((s) => ({
        kata: s.dataset.kata ?? "",
        score: Number(s.dataset.score),
        text: s.querySelector(".score")?.textContent ?? "",
        passing: s.querySelector("h2 small")?.textContent ?? "",
        barWidth: Number(s.querySelector('[data-level="all"] svg rect:nth-of-type(2)')?.getAttribute("width")),
        visible: s.offsetHeight > 0,
      })),
    );
    const overall = await page.$eval("h1", (element) => {
      const h = element as unknown as PageElement;
      return { text: h.textContent ?? "", value: Number(h.dataset.overall) };
    });
    check(shown.length === report.x_katas.length, `the page shows ${shown.length} katas, the JSON has ${report.x_katas.length}`);
    for (const kata of report.x_katas) {
      const s = shown.find((x) => x.kata === kata.kata);
      if (!s) {
        check(false, `${kata.kata} is not on the page`);
        continue;
      }
      check(s.visible, `${kata.kata} is not visible`);
      check(s.score === kata.score, `${kata.kata}: page data ${s.score}, JSON ${kata.score}`);
      check(s.text === kata.score.toFixed(1), `${kata.kata}: page shows "${s.text}", JSON ${kata.score}`);
      check(s.passing.startsWith(`${kata.passed} of ${kata.total}`), `${kata.kata}: page says "${s.passing}", JSON ${kata.passed} of ${kata.total}`);
      check(Math.abs(s.barWidth - Math.round((kata.score / 100) * 240)) <= 1, `${kata.kata}: bar ${s.barWidth}px does not match ${kata.score}`);
    }
    const columns = await page.$$eval("svg.overview rect", (rects) => rects.length);
    check(columns === 4 * report.x_katas.length, `the overview chart has ${columns} columns, expected 4 per kata`);
    check(overall.value === report.score && overall.text.includes(report.score.toFixed(1)), `overall: page "${overall.text}", JSON ${report.score}`);
    check(requests.every((url) => url.startsWith("file:")), `the page made network requests: ${requests.filter((u) => !u.startsWith("file:")).join(", ")}`);
    await page.screenshot({ path: join(out, "report.png") });

    // Integrity: a badge on the heading and the chart, and the findings listed, as text.
    const integrityHtml = join(out, "integrity.html");
    const runs = integrityRuns();
    writeFileSync(integrityHtml, htmlReport(runs, score(runs), { impl: "synthetic", seed: 0, bank: false, startedAt: new Date(), durationMs: 0 }));
    await page.goto(pathToFileURL(integrityHtml).href);
    const kataIntegrity = await page.$$eval("section.kata", (elements) => {
      // The window's getComputedStyle, typed here: the project compiles without the DOM library.
      const view = globalThis as unknown as { getComputedStyle(e: PageElement): { backgroundColor: string } };
      return (elements as unknown as PageElement[]).map((s) => {
        const badge = s.querySelector("h2 .badge");
        const section = s.querySelector(".integrity");
        return {
          kata: s.dataset.kata ?? "",
          badge: badge && badge.offsetHeight > 0 ? { text: badge.textContent ?? "", status: badge.dataset.integrity ?? "", colour: view.getComputedStyle(badge).backgroundColor } : undefined,
          section: section && section.offsetHeight > 0 ? { status: section.dataset.integrity ?? "", text: section.textContent ?? "" } : undefined,
        };
      });
    });
    const chartBadges = await page.$$eval("svg.overview text.badge-label", (elements) =>
      (elements as unknown as PageElement[]).map((t) => `${t.dataset.kata}:${t.textContent}`));
    const find = (kata: string) => kataIntegrity.find((k) => k.kata === kata);
    for (const [kata, status] of [["02-refused", "refused"]] as const) {
      const k = find(kata);
      check(k?.badge?.status === status && k.badge.text.toLowerCase() === status, `${kata}: no visible "${status}" badge on its heading (${JSON.stringify(k?.badge)})`);
      check(k?.badge?.colour === "rgb(198, 40, 40)", `${kata}: its badge is not red (${k?.badge?.colour})`);
      check(chartBadges.includes(`${kata}:${status.toUpperCase()}`), `${kata}: no ${status.toUpperCase()} under its chart label (chart has ${chartBadges.join(", ") || "none"})`);
      check(k?.section?.status === status && k.section.text.includes("Integrity") && k.section.text.includes(`${status}: `), `${kata}: no visible Integrity section listing what was ${status} (${JSON.stringify(k?.section)})`);
    }
    check(!!find("02-refused")?.section?.text.includes(INJECTED), "02-refused: its note does not show the file name as text");
    check(find("03-noted")?.section?.status === "notes" && !find("03-noted")?.badge, `03-noted: notes should be listed without a badge (${JSON.stringify(find("03-noted"))})`);
    check(!find("04-clean")?.section && !find("04-clean")?.badge, "04-clean: a clean kata shows a badge or an Integrity section");
    check(chartBadges.length === 1, `the chart shows ${chartBadges.length} badges, expected 1`);
    check((await page.$$("#injected")).length === 0, "a note's text became markup: the report does not escape it");
    await page.screenshot({ path: join(out, "integrity.png"), fullPage: true });

    checks += await checkLeaderboard(page, json, html, failures);
  } finally {
    await browser.close();
  }
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`Screenshots: ${["report.png", "integrity.png", "leaderboard.png"].map((f) => join(".grade", "browser", f)).join(", ")}`);
  console.log(`test:browser: ${checks - failures.length} passed, ${failures.length} failed`);
  return failures.length === 0 ? 0 : 1;
}

/** The few page calls the leaderboard check makes (playwright's Page, without its types here). */
interface LeaderboardPage {
  goto(url: string): Promise<unknown>;
  click(selector: string): Promise<void>;
  url(): string;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  $eval<R>(selector: string, f: (element: unknown) => R): Promise<R>;
  $$eval<R>(selector: string, f: (elements: unknown[]) => R): Promise<R>;
}

/**
 * grade:round's leaderboard page, made from the report just graded (three candidates: that grade,
 * the same with a lower score, and one stopped over its budget, as rows are read from results.json):
 * the table shows the figures, sorts on a click, the chart has a bar per candidate, kata and level,
 * and the link opens the candidate's own report. Returns the number of checks made.
 */
async function checkLeaderboard(page: LeaderboardPage, json: string, html: string, failures: string[]): Promise<number> {
  let checks = 0;
  const check = (ok: boolean, what: string) => {
    checks++;
    if (!ok) failures.push(`leaderboard: ${what}`);
  };
  const results = JSON.parse(readFileSync(json, "utf8")) as Results;
  const lower: Results = { ...results, score: Math.max(0, results.score - 10), x_katas: results.x_katas.map((k) => ({ ...k, score: 0 })) };
  const rows: RoundRow[] = [
    rowFromResults({ candidate: "graded", dir: "/round/graded", state: "graded", wallMs: 5000, report: html }, results),
    rowFromResults({ candidate: "lower", dir: "/round/lower", state: "cached", wallMs: 4000 }, lower),
    rowWithoutResults({ candidate: "stopped", dir: "/round/stopped", state: "over-budget", wallMs: 9000 }, "over the budget of 9 s: stopped, not graded"),
  ];
  const page_ = join(out, "leaderboard.html");
  writeFileSync(page_, leaderboardHtml(rows, { seed: 1, startedAt: new Date(), reportHref: (row) => (row.report ? "report.html" : undefined) }));
  await page.goto(pathToFileURL(page_).href);
  const order = () => page.$$eval("table.leaderboard tbody tr", (trs) => (trs as PageElement[]).map((tr) => ({ name: tr.dataset.candidate ?? "", overall: Number(tr.dataset.overall), shown: tr.querySelector(".overall")?.textContent ?? "", visible: tr.offsetHeight > 0 })));
  const first = await order();
  check(first.map((r) => r.name).join(",") === "graded,lower,stopped", `rows in the order ${first.map((r) => r.name).join(",")}, expected best first`);
  check(first.every((r) => r.visible), "a row is not visible");
  check(first[0]?.overall === results.score && first[0]?.shown === results.score.toFixed(1), `the first row shows ${first[0]?.shown}, results.json ${results.score}`);
  // Sorting: the overall column, ascending on the second click.
  const overallHeader = "table.leaderboard th:nth-child(3)";
  await page.click(overallHeader);
  await page.click(overallHeader);
  const sorted = await order();
  check(sorted.map((r) => r.name).join(",") === "stopped,lower,graded", `after sorting by overall (ascending): ${sorted.map((r) => r.name).join(",")}`);
  const bars = await page.$$eval("svg.chart rect.bar", (rects) => (rects as PageElement[]).map((r) => ({ candidate: r.dataset.candidate ?? "", kata: r.dataset.kata ?? "", level: r.dataset.level ?? "", score: r.dataset.score ?? "", width: Number(r.getAttribute("width")) })));
  check(bars.length === 3 * 3 * results.x_katas.length, `the chart has ${bars.length} bars, expected one per candidate, kata and level`);
  for (const kata of results.x_katas) {
    for (const level of ["L1", "L2", "L3"] as const) {
      const bar = bars.find((b) => b.candidate === "graded" && b.kata === kata.kata && b.level === level);
      const value = kata.levels[level];
      check(bar !== undefined && bar.score === String(value ?? "") && Math.abs(bar.width - Math.round((48 * (value ?? 0)) / 100)) <= 1, `${kata.kata} ${level}: bar ${JSON.stringify(bar)}, results.json ${value}`);
    }
  }
  await page.screenshot({ path: join(out, "leaderboard.png"), fullPage: true });
  await page.click("tr[data-candidate=graded] a.report");
  const overall = await page.$eval("h1", (h) => Number((h as PageElement).dataset.overall));
  check(page.url().endsWith("/report.html") && overall === results.score, `the report link opened ${page.url()} (overall ${overall})`);
  return checks;
}

if (isEntry(import.meta.url)) runAsCommand("test:browser", main, 1);

// npm run test:browser: opens the grader's HTML report in a real browser (Debian's chromium,
// driven by playwright-core), checks that the figures it shows are the JSON report's, and saves
// a screenshot (.grade/browser/report.png) for a person to look at.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { usage } from "./lib/cli-args.ts";
import { PROJECT_ROOT } from "./lib/impl-root.ts";
import { listKatas } from "./lib/grader/katas.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const out = join(PROJECT_ROOT, ".grade", "browser");

/** An implementation root that mixes a reference, a known-bad fixture and a stub, so the chart has every colour. */
function mixedImplementation(): string {
  const root = join(out, "impl");
  rmSync(root, { recursive: true, force: true });
  const knownBad = join(PROJECT_ROOT, "spec", "fixtures", "known-bad");
  const flawed = (kata: string) =>
    existsSync(knownBad) ? readdirSync(knownBad).map((f) => join(knownBad, f, kata)).find((dir) => existsSync(join(dir, "index.ts"))) : undefined;
  listKatas().forEach((kata, i) => {
    const source = [join(PROJECT_ROOT, "solutions", kata.id), flawed(kata.id) ?? join(PROJECT_ROOT, "katas", kata.id), join(PROJECT_ROOT, "katas", kata.id)][i % 3];
    mkdirSync(join(root, kata.id), { recursive: true });
    writeFileSync(join(root, kata.id, "index.ts"), `export * from ${JSON.stringify(join(source, "index.ts"))};\n`);
  });
  return root;
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

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help")) {
    console.log(usage("npm run test:browser", "Grades a mix of a reference, a known-bad fixture and a stub into an HTML report, opens it in chromium (CHROMIUM_PATH, default /usr/bin/chromium), checks its figures against the JSON report and saves a screenshot to .grade/browser/report.png.", {}));
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
  } finally {
    await browser.close();
  }
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`Screenshot: ${join(".grade", "browser", "report.png")}`);
  console.log(`test:browser: ${checks - failures.length} passed, ${failures.length} failed`);
  return failures.length === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error) => {
  console.error(`test:browser: ${(error as Error).stack ?? error}`);
  process.exit(1);
});

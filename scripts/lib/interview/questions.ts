// The follow-up questions an interviewer asks about a kata, without the answers: the part of the
// interviewer guide a candidate may see. The guide is not in the candidate's pack, so the questions
// are kept in follow-up-questions.json beside this file, written from the guide by
// `npm run manifest` and checked against it by scripts/test/interview.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../impl-root.ts";

export type Lang = "en" | "zh-CN";

/** Per kata number ("1", "2", "3"), per language: the questions, in the guide's order. */
export type FollowUpQuestions = Record<string, Record<Lang, string[]>>;

export const QUESTIONS_FILE = join(PROJECT_ROOT, "scripts", "lib", "interview", "follow-up-questions.json");

const GUIDES: Record<Lang, string> = {
  en: join(PROJECT_ROOT, "docs", "interviewer-guide.md"),
  "zh-CN": join(PROJECT_ROOT, "docs", "interviewer-guide.zh-CN.md"),
};

/** A kata's section starts "## 3. Kata 1" (English) or "## 3. Kata 1：" (Chinese). */
const KATA_SECTION = /^## \d+\. Kata (\d)\b/;
const FOLLOW_UPS = /^### (Follow-up questions|追问)\s*$/;
/** `1. *"the question"* Strong: ...`: the question is what stands between `*"` and `"*`. */
const QUESTION = /^\d+\.\s+\*"(.+?)"\*/;

/** The questions of every kata section of one guide. */
export function questionsFromGuide(markdown: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  let kata: string | undefined;
  let inFollowUps = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("## ")) {
      kata = KATA_SECTION.exec(line)?.[1];
      inFollowUps = false;
    } else if (line.startsWith("### ")) inFollowUps = kata !== undefined && FOLLOW_UPS.test(line);
    else if (inFollowUps && kata) {
      const question = QUESTION.exec(line)?.[1];
      if (question) (found[kata] ??= []).push(question);
    }
  }
  return found;
}

/** From the guides, when this checkout has them (a maintainer's; not a candidate's pack). */
export function questionsFromGuides(): FollowUpQuestions | undefined {
  if (!Object.values(GUIDES).every((file) => existsSync(file))) return undefined;
  const byLang = Object.fromEntries(Object.entries(GUIDES).map(([lang, file]) => [lang, questionsFromGuide(readFileSync(file, "utf8"))])) as Record<Lang, Record<string, string[]>>;
  const katas = [...new Set([...Object.keys(byLang.en), ...Object.keys(byLang["zh-CN"])])].sort();
  return Object.fromEntries(katas.map((kata) => [kata, { en: byLang.en[kata] ?? [], "zh-CN": byLang["zh-CN"][kata] ?? [] }]));
}

export function followUpQuestions(kataNumber: number, lang: Lang): string[] {
  if (!existsSync(QUESTIONS_FILE)) return [];
  const all = JSON.parse(readFileSync(QUESTIONS_FILE, "utf8")) as FollowUpQuestions;
  return all[String(kataNumber)]?.[lang] ?? [];
}

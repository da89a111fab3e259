import { describe, expect, test } from "vitest";
import { parseHints } from "../lib/hints.ts";

describe("hints", () => {
  test("each '## ' section is one hint, in order, in either language", () => {
    const hints = parseHints("# Kata 1 hints\n\nintro\n\n## Hint 1: start small\nbody one\n\n## 提示 2：括号\n第二条\n");
    expect(hints).toEqual([
      { title: "Hint 1: start small", body: "body one" },
      { title: "提示 2：括号", body: "第二条" },
    ]);
  });
});

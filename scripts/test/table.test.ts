import { describe, expect, test } from "vitest";
import { columns, markdownTable } from "../lib/table.ts";

describe("columns (a terminal table)", () => {
  test("pads each column to its widest cell, figures to the right; a left-aligned last cell is not padded", () => {
    const rows = [["#", "name", "score", "note"], ["1", "ann", "100.0", "fine"], ["12", "bo", "5.0", ""]];
    expect(columns(rows, { alignRight: (c) => c === 0 || c === 2 })).toEqual([" #  name  score  note", " 1  ann   100.0  fine", "12  bo      5.0  "]);
  });
  test("fixed widths, a gap and an indent; a cell longer than its width pushes the rest", () => {
    const lines = columns([["kata", "score"], ["01-long-kata-name", "7.5"]], { widths: [8, 6], alignRight: (c) => c > 0, gap: "", indent: "  " });
    expect(lines).toEqual(["  kata     score", "  01-long-kata-name   7.5"]);
  });
  test("a styled cell is painted after padding, and its width counts the text alone; rows may be shorter", () => {
    const red = (s: string) => `<r>${s}</r>`;
    const lines = columns([["a", "b", "c"], ["xyz", { text: "1", paint: red }]], { alignRight: (c) => c > 0, gap: " " });
    expect(lines).toEqual(["a   b c", "xyz <r>1</r>"]);
  });
});

describe("markdownTable (GFM)", () => {
  test("unpadded: the shortest rule, right-aligned columns marked, cells written through `cell`", () => {
    const escape = (s: string) => s.replace(/\|/g, "\\|");
    expect(markdownTable(["x", "n"], [["a|b", "1"]], { alignRight: (c) => c === 1, cell: escape })).toBe("| x | n |\n|---|---:|\n| a\\|b | 1 |");
  });
  test("padded: every cell and the rule as wide as the column, so it reads as a table in a terminal too", () => {
    const table = markdownTable(["case", "time"], [["short", "1.5 ms"], ["a longer case", "12 ms"]], { alignRight: (c) => c === 1, padded: true });
    expect(table).toBe(["| case          |   time |", "|---------------|-------:|", "| short         | 1.5 ms |", "| a longer case |  12 ms |"].join("\n"));
  });
});

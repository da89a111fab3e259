// The one table writer of the scripts, with two renderers for two formats: `columns`, space-padded
// columns for a terminal (the grade's score table, the round's leaderboard, the mutation scores, a
// usage's options), and `markdownTable`, GitHub-flavoured Markdown (job summaries, the benchmark
// tables pasted into docs/). Hand-written because Node's own, console.table, draws box characters
// around every cell, adds an index column and prints instead of returning the text.

/** A cell, or a cell with a style (a colour) applied to its padded text, so padding is counted on the plain text. */
export type Cell = string | { text: string; paint: (padded: string) => string };

export interface ColumnsOptions {
  /** Each column's width, fixed; a column without one is as wide as its widest cell. */
  widths?: readonly number[];
  /** Whether a column is right-aligned (figures); the others are left-aligned. */
  alignRight?: (column: number) => boolean;
  /** Between two columns; default two spaces. */
  gap?: string;
  /** Before each row. */
  indent?: string;
}

const textOf = (cell: Cell | undefined): string => (cell === undefined ? "" : typeof cell === "string" ? cell : cell.text);

/**
 * Terminal rows, one string per row (rows may have fewer cells than others). A left-aligned cell
 * that ends its row is not padded: spaces at the end of a line say nothing.
 */
export function columns(rows: ReadonlyArray<readonly Cell[]>, options: ColumnsOptions = {}): string[] {
  const { widths: fixed, alignRight = () => false, gap = "  ", indent = "" } = options;
  const count = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, c) => fixed?.[c] ?? Math.max(...rows.map((row) => textOf(row[c]).length)));
  return rows.map((row) => {
    const cells = row.map((cell, c) => {
      const text = textOf(cell);
      const padded = alignRight(c) ? text.padStart(widths[c]) : c === row.length - 1 ? text : text.padEnd(widths[c]);
      return typeof cell === "string" ? padded : cell.paint(padded);
    });
    return indent + cells.join(gap);
  });
}

export interface MarkdownOptions {
  /** Whether a column is right-aligned (`---:`); the others are left as Markdown has them. */
  alignRight?: (column: number) => boolean;
  /** Cells padded to their column's width, so that the table reads as one in a terminal too. */
  padded?: boolean;
  /** A cell's text as written into the table, e.g. escaped: a pipe or a line break would end the cell. */
  cell?: (text: string) => string;
}

/** A GFM table: the header, the rule, the rows. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, options: MarkdownOptions = {}): string {
  const { alignRight = () => false, padded = false, cell = (text: string) => text } = options;
  const written = [header, ...rows].map((cells) => cells.map(cell));
  const widths = header.map((_, c) => (padded ? Math.max(...written.map((cells) => (cells[c] ?? "").length)) : 0));
  const pad = (text: string, c: number) => (!padded ? text : alignRight(c) ? text.padStart(widths[c]) : text.padEnd(widths[c]));
  const line = (cells: readonly string[]) => `| ${cells.map(pad).join(" | ")} |`;
  // Padded, the rule is as wide as the cells and their spaces; unpadded, the shortest GFM allows.
  const ruleCell = (width: number, c: number) => (padded ? (alignRight(c) ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2)) : alignRight(c) ? "---:" : "---");
  const [head, ...body] = written.map(line);
  return [head, `|${widths.map(ruleCell).join("|")}|`, ...body].join("\n");
}

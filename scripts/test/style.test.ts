import { afterEach, describe, expect, test } from "vitest";
import { styleFor } from "../lib/grader/report-terminal.ts";

const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const tty = { isTTY: true } as NodeJS.WriteStream;
const pipe = { isTTY: false } as NodeJS.WriteStream;

describe("styleFor: colours for a person at a terminal only", () => {
  test("a terminal without NO_COLOR gets colour codes (util.styleText's), whatever the process's own stdout is", () => {
    delete process.env.NO_COLOR;
    // This test's stdout is no terminal: styleText alone would leave the text plain on some Node versions.
    const style = styleFor(tty);
    expect(style.red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(style.green("x")).toBe("\u001b[32mx\u001b[39m");
    expect(style.yellow("x")).toBe("\u001b[33mx\u001b[39m");
    expect(style.bold("x")).toBe("\u001b[1mx\u001b[22m");
    expect(style.dim("x")).toBe("\u001b[2mx\u001b[22m");
  });
  test("NO_COLOR (any value but empty), or a stream that is no terminal, gives plain text; FORCE_COLOR changes neither", () => {
    process.env.NO_COLOR = "1";
    expect(styleFor(tty).red("x")).toBe("x");
    process.env.NO_COLOR = "";
    expect(styleFor(tty).red("x")).toBe("\u001b[31mx\u001b[39m");
    delete process.env.NO_COLOR;
    process.env.FORCE_COLOR = "1";
    for (const format of ["bold", "dim", "red", "green", "yellow"] as const) expect(styleFor(pipe)[format]("x")).toBe("x");
    process.env.FORCE_COLOR = "0";
    expect(styleFor(tty).bold("x")).toBe("\u001b[1mx\u001b[22m");
  });
});

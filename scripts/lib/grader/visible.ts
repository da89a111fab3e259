// Text from graded code (an error's message, what its process printed, a file name in its folder)
// reaches every report, and a terminal takes control characters as commands: an escape sequence
// could clear the interviewer's screen and draw a table of its own. So every such text is made
// visible before any report sees it: each control character (C0 but line feed and tab, DEL, C1)
// and each character that reorders what follows it (the bidirectional overrides and isolates) is
// written as its escape, `\x1b`, `\r`, `\u202e`.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\r": "\\r", "\b": "\\b", "\f": "\\f", "\v": "\\v", "\u0000": "\\0" };

export function visible(text: string): string {
  return text.replace(CONTROL, (c) => NAMED[c] ?? (c.charCodeAt(0) < 0x100 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

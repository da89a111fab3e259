// Passages of a document that a pack keeps or drops, marked with HTML comments (invisible on
// GitHub and in any Markdown viewer):
//
//   <!-- not in pack -->  ...  <!-- end -->        maintainer material: never in a pack
//   <!-- if NAME -->      ...  <!-- end -->        in a pack only when the pack has NAME
//
// so that one document can serve the repository and the pack, and the pack's copy names only
// what the pack holds. Passages do not nest; the marker lines themselves are removed.

const MARK = /^\s*<!--\s*(not in pack|if ([\w:-]+)|end)\s*-->\s*$/;

export function packPassages(text: string, has: (name: string) => boolean, where = "document"): string {
  const out: string[] = [];
  let open: { keep: boolean; line: number } | undefined;
  text.split("\n").forEach((line, index) => {
    const mark = MARK.exec(line);
    if (!mark) {
      if (!open || open.keep) out.push(line);
      return;
    }
    if (mark[1] === "end") {
      if (!open) throw new Error(`${where}:${index + 1}: <!-- end --> without an opening marker`);
      open = undefined;
      return;
    }
    if (open) throw new Error(`${where}:${index + 1}: a marker inside the passage opened at line ${open.line}`);
    open = { keep: mark[2] !== undefined && has(mark[2]), line: index + 1 };
  });
  if (open) throw new Error(`${where}:${open.line}: a passage that is never closed with <!-- end -->`);
  return out.join("\n");
}

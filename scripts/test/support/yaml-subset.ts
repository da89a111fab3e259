// A reader for the block YAML that GitHub workflows are written in (mappings, sequences, plain and
// quoted scalars, `|` block scalars, comments), so that a test can check a workflow's structure
// without a YAML dependency. It throws on what it does not know (tabs, flow collections, anchors)
// rather than guess: a workflow that needs more than this is one to read again.
export type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
  number: number;
}

function scalar(text: string, line: number): string | null {
  if (text === "" || text === "~" || text === "null") return null;
  if (/^[[{&*!]/.test(text)) throw new Error(`line ${line}: flow collections, anchors and tags are not read here: ${text}`);
  const quoted = /^"((?:[^"\\]|\\.)*)"$|^'((?:[^']|'')*)'$/.exec(text);
  if (quoted) return quoted[1] !== undefined ? (JSON.parse(`"${quoted[1]}"`) as string) : quoted[2].replace(/''/g, "'");
  if (/^["']/.test(text)) throw new Error(`line ${line}: an unclosed quote: ${text}`);
  return text;
}

export function parseYaml(source: string): Yaml {
  const raw = source.split("\n");
  const lines: Line[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (/^\s*\t/.test(raw[i])) throw new Error(`line ${i + 1}: a tab in the indentation`);
    const text = raw[i].replace(/(^|\s)#.*$/, "").trimEnd();
    if (text.trim() === "") continue;
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), number: i + 1 });
  }
  let at = 0;

  /** A `|` block: the raw lines more indented than its key, kept as text. */
  function block(parentIndent: number): string {
    const start = lines[at]?.number;
    const kept: string[] = [];
    let indent = -1;
    for (let n = start === undefined ? raw.length : start - 1; n < raw.length; n++) {
      const text = raw[n];
      const lineIndent = text.length - text.trimStart().length;
      if (text.trim() !== "" && lineIndent <= parentIndent) break;
      if (indent === -1 && text.trim() !== "") indent = lineIndent;
      kept.push(text.slice(Math.max(indent, 0)));
    }
    while (at < lines.length && lines[at].indent > parentIndent) at++;
    return kept.join("\n").replace(/\n*$/, "\n");
  }

  /** The value after `key:` or `- `: inline, a block scalar, or the nested lines. */
  function value(rest: string, indent: number, number: number): Yaml {
    if (rest === "|" || rest === "|-") return block(indent);
    if (rest !== "") return scalar(rest, number);
    return at < lines.length && lines[at].indent > indent ? node(lines[at].indent) : lines[at]?.indent === indent && lines[at].text.startsWith("- ") ? node(indent) : null;
  }

  function node(indent: number): Yaml {
    const first = lines[at];
    if (first.text === "-" || first.text.startsWith("- ")) {
      const list: Yaml[] = [];
      while (at < lines.length && lines[at].indent === indent && (lines[at].text === "-" || lines[at].text.startsWith("- "))) {
        const line = lines[at];
        const rest = line.text.slice(1).trimStart();
        if (/^[\w.$-]+:(\s|$)/.test(rest)) {
          // "- key: value" opens a mapping whose keys sit where "key" does.
          lines[at] = { indent: indent + line.text.length - rest.length, text: rest, number: line.number };
          list.push(node(lines[at].indent));
        } else {
          at++;
          list.push(value(rest, indent, line.number));
        }
      }
      return list;
    }
    const map: { [key: string]: Yaml } = {};
    while (at < lines.length && lines[at].indent === indent) {
      const line = lines[at];
      const match = /^([\w.$/-]+|"[^"]*"|'[^']*'):(?:\s+(.*))?$/.exec(line.text);
      if (!match) throw new Error(`line ${line.number}: not a "key: value" line: ${line.text}`);
      const key = match[1].replace(/^["']|["']$/g, "");
      if (key in map) throw new Error(`line ${line.number}: the key "${key}" twice`);
      at++;
      map[key] = value(match[2] ?? "", indent, line.number);
    }
    if (at < lines.length && lines[at].indent > indent) throw new Error(`line ${lines[at].number}: unexpected indentation`);
    return map;
  }

  if (lines.length === 0) return null;
  const doc = node(lines[0].indent);
  if (at < lines.length) throw new Error(`line ${lines[at].number}: unexpected indentation`);
  return doc;
}

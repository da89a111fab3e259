// How live mode prints a run: the transcript (what each side said) and the trace (what the
// runtime did), one labelled line per event, as it happens. Nothing here reads the clock unless
// timings are asked for, so a replay prints exactly what the recorded run printed.

/** `[label] text`, continuation lines indented under it. */
export function labelled(label: string, text: string): string {
  const lines = text.split(/\r?\n/);
  return `[${label}] ${lines[0]}${lines.slice(1).map((l) => `\n    ${l}`).join("")}`;
}

export function messageLine(role: string, content: string): string {
  return labelled(role, content === "" ? "(no text)" : content);
}

/** A value on one line, for trace lines: strings as they are, anything else as JSON. */
export function oneLine(value: unknown, max = 300): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  text = text.replace(/\r?\n/g, "\\n");
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** One kata 3 trace event as a line. Unknown shapes (a candidate's extra fields) print as JSON. */
export function traceLine(event: Record<string, unknown>, timings: boolean): string {
  const { type, runId: _runId, at, ...rest } = event;
  const time = timings && typeof at === "number" ? ` @${at}` : "";
  switch (type) {
    case "run_start":
      return `[trace] run_start ${oneLine(event.runId)}${time}`;
    case "step": {
      const usage = (rest.usage ?? {}) as { input_tokens?: unknown; output_tokens?: unknown };
      return `[trace] step ${oneLine(rest.step)} · ${oneLine(rest.toolCalls)} tool call(s) · usage ${oneLine(usage.input_tokens)} in, ${oneLine(usage.output_tokens)} out${time}`;
    }
    case "tool_call": {
      const error = rest.error !== undefined ? ` · error ${oneLine(rest.error)}` : "";
      const duration = timings ? ` · ${oneLine(rest.durationMs)} ms` : "";
      return (
        `[trace] tool_call ${oneLine(rest.name)} ${oneLine(rest.arguments)} · id ${oneLine(rest.callId)} · step ${oneLine(rest.step)}` +
        ` · validation ${oneLine(rest.validation)} · outcome ${oneLine(rest.outcome)}${error} · retries ${oneLine(rest.retries)}${duration}${time}`
      );
    }
    case "run_end":
      return `[trace] run_end ${oneLine(rest.status)} · ${oneLine(rest.steps)} step(s)${time}`;
    default: {
      if (!timings) delete rest.durationMs;
      return `[trace] ${oneLine(type)} ${oneLine(rest)}${time}`;
    }
  }
}

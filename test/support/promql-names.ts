// The metric names a PromQL expression reads, for tests that check dashboards and alert rules against a
// live /metrics scrape, and a reader of the Prometheus text format to check them against. Not a PromQL
// parser: it blanks what cannot hold a metric name (strings, label matchers, ranges, grouping label
// lists, Grafana variables) and keeps the identifiers that are neither functions, keywords nor numbers.

const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "and",
  "or",
  "unless",
  "bool",
  "offset",
  "start",
  "end",
  "inf",
  "nan",
]);

/** Metric names read by `expr`, in order of appearance, each once. */
export function metricNames(expr: string): string[] {
  const blanked = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\$\{[^}]*\}|\$\w+/g, " ");
  const names: string[] = [];
  // Not preceded by a word character or a dot: the `m` of `5m`, the `e3` of `1e3` are not names.
  for (const m of blanked.matchAll(/(?<![\w.:])[A-Za-z_:][\w:]*/g)) {
    const name = m[0];
    const rest = blanked.slice((m.index ?? 0) + name.length);
    if (/^\s*\(/.test(rest) || KEYWORDS.has(name.toLowerCase())) continue;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** What a scrape declares (`# TYPE name type`) and which names have samples. */
export interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly sampled: ReadonlySet<string>;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const sampled = new Set<string>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1] as string, type[2] as string);
    else if (line !== "" && !line.startsWith("#")) sampled.add(line.split(/[{\s]/, 1)[0] as string);
  }
  return { types, sampled };
}

/**
 * The family a series name belongs to: itself when declared, else the histogram (or summary) it is a
 * `_bucket`, `_sum` or `_count` of; undefined when the scrape declares neither.
 */
export function familyOf(name: string, scrape: Exposition): string | undefined {
  if (scrape.types.has(name)) return name;
  const m = /^(.+)_(bucket|sum|count)$/.exec(name);
  if (!m) return undefined;
  const [, base = "", suffix] = m;
  const type = scrape.types.get(base);
  if (type === "histogram") return base;
  if (type === "summary" && suffix !== "bucket") return base;
  return undefined;
}

// The report of `npm run bench` (bench/suite/main.ts): one section per scenario, each a table of measures
// with Switchyard's figure, the baseline's, their ratio and the target, and the same numbers as JSON.
// Kept apart from the scenarios so the format is in one place.

/** A target on the ratio (Switchyard ÷ baseline) or on Switchyard's own figure. */
export interface Target {
  readonly on: "ratio" | "switchyard";
  readonly op: ">=" | "<=" | "<";
  readonly value: number;
  /** Unit of an absolute target ("ms", "B"). */
  readonly unit?: string;
  /** Where the target comes from, when not from the brief. */
  readonly source?: string;
}

export interface Row {
  readonly measure: string;
  readonly unit: string;
  readonly switchyard: number | null;
  readonly baseline: number | null;
  /** Switchyard ÷ baseline. */
  readonly ratio: number | null;
  readonly target: Target | null;
  /** null: no target, or nothing measured. */
  readonly met: boolean | null;
}

export interface Section {
  readonly id: string;
  readonly title: string;
  /** What the baseline is, in a sentence or two. */
  readonly baseline: string;
  readonly rows: readonly Row[];
  readonly notes: readonly string[];
}

export interface Meta {
  readonly date: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationS: number;
  readonly commit: string;
  readonly dirty: boolean;
  readonly node: string;
  readonly cores: number;
  readonly cpu: string;
  readonly loadAverage: readonly number[];
  readonly command: string;
  readonly quick: boolean;
  readonly only: readonly string[];
}

const finite = (x: number | null): x is number => x !== null && Number.isFinite(x);

export function row(
  measure: string,
  unit: string,
  switchyard: number | null | undefined,
  baseline: number | null | undefined,
  target: Target | null = null,
): Row {
  const sy = finite(switchyard ?? null) ? switchyard! : null;
  const base = finite(baseline ?? null) ? baseline! : null;
  const ratio = sy !== null && base !== null && base !== 0 ? sy / base : null;
  const subject = target?.on === "ratio" ? ratio : sy;
  const met =
    target === null || subject === null
      ? null
      : target.op === ">="
        ? subject >= target.value
        : target.op === "<="
          ? subject <= target.value
          : subject < target.value;
  return { measure, unit, switchyard: sy, baseline: base, ratio, target, met };
}

const OPS = { ">=": "≥", "<=": "≤", "<": "<" } as const;

export function targetText(t: Target | null): string {
  if (t === null) return "–";
  const value = t.on === "ratio" ? t.value.toFixed(2) : `${t.value}${t.unit ? ` ${t.unit}` : ""}`;
  return `${t.on === "ratio" ? "ratio " : ""}${OPS[t.op]} ${value}`;
}

export function fmt(x: number | null): string {
  if (x === null) return "–";
  const abs = Math.abs(x);
  if (abs >= 100) return Math.round(x).toLocaleString("en");
  if (abs >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/** A ratio to two decimals, or two significant digits when it is below 0.1 (a DLQ page: 0.0021). */
export function fmtRatio(x: number | null): string {
  if (x === null) return "–";
  return Math.abs(x) < 0.1 && x !== 0 ? x.toPrecision(2) : x.toFixed(2);
}

function sectionMarkdown(s: Section, cores: number): string {
  const head = [
    `| measure | Switchyard (${cores} cores) | baseline (${cores} cores) | ratio | target | met? |`,
    "|---|--:|--:|--:|---|:-:|",
  ];
  const lines = s.rows.map((r) => {
    const unit = r.unit ? ` (${r.unit})` : "";
    const met = r.met === null ? "–" : r.met ? "yes" : "**no**";
    return `| ${r.measure}${unit} | ${fmt(r.switchyard)} | ${fmt(r.baseline)} | ${fmtRatio(r.ratio)} | ${targetText(r.target)} | ${met} |`;
  });
  const sources = [...new Set(s.rows.flatMap((r) => (r.target?.source ? [r.target.source] : [])))];
  return [
    `## ${s.title}`,
    "",
    `Baseline: ${s.baseline}`,
    "",
    ...head,
    ...lines,
    ...(s.notes.length > 0 || sources.length > 0 ? [""] : []),
    ...s.notes.map((n) => `- ${n}`),
    ...sources.map((src) => `- Target source: ${src}.`),
  ].join("\n");
}

export function markdown(meta: Meta, sections: readonly Section[], failures: readonly string[]): string {
  const header = [
    `# Switchyard benchmarks, ${meta.date}${meta.quick ? " (quick smoke run)" : ""}`,
    "",
    `- Date: ${meta.startedAt} (took ${Math.round(meta.durationS)} s)`,
    `- Git commit: \`${meta.commit}\`${meta.dirty ? " (with uncommitted changes)" : ""}`,
    `- Node: ${meta.node}`,
    `- Cores: ${meta.cores} (\`os.cpus().length\`; ${meta.cpu}); load average at start ${meta.loadAverage.map((l) => l.toFixed(2)).join(", ")}`,
    `- Command: \`${meta.command}\``,
    "",
    `Ratios are Switchyard ÷ baseline, measured in the same run on the same machine; the absolute figures` +
      ` are this ${meta.cores}-core machine's and only mean something beside each other.` +
      (meta.quick ? " A quick run is a smoke test: its figures are too short to mean anything." : ""),
  ];
  const failed =
    failures.length === 0 ? [] : ["", "**Failed steps** (see the log):", ...failures.map((f) => `- ${f}`)];
  return `${[...header, ...failed, ...sections.flatMap((s) => ["", sectionMarkdown(s, meta.cores)])].join("\n")}\n`;
}

// The scenarios of `npm run bench` as report sections: which figures of which step's result make each
// table row, against which baseline and which target. Targets are the project's (README, the brief the
// suite was written to); where one comes from elsewhere its row says so.
import type { E2eResult } from "../shared/result-types.ts";
import { type Row, type Section, row } from "./report.ts";
import { scale } from "./scale-section.ts";
import type { Scenario, StepResults } from "./steps.ts";

const DLQ_TARGET_SOURCE =
  "test/integration/admin-dlq-perf.test.ts (a page at least 20× faster than the full listing)";

function ingest(r: StepResults): Section {
  const rows: Row[] = [];
  const measured = r.ingest?.byProcesses ?? [];
  for (const processes of measured.length > 0 ? measured.map((p) => p.processes) : [1, 2]) {
    const p = measured.find((x) => x.processes === processes);
    const [sy, base] = [p?.switchyard, p?.baseline];
    const n = `${processes} API process${processes === 1 ? "" : "es"}`;
    rows.push(
      row(`accepted, ${n}`, "hooks/s", sy?.rps, base?.rps, { on: "ratio", op: ">=", value: 0.8 }),
      row(`202 latency p50, ${n}`, "ms", sy?.p50, base?.p50),
      row(`202 latency p99, ${n}`, "ms", sy?.p99, base?.p99),
    );
  }
  const i = r.ingest;
  return {
    id: "ingest",
    title: "Ingest",
    baseline:
      "a bare Hono route doing the same Redis writes in one pipeline (dedup `SET NX`, the hook hash and its TTL, " +
      "the pending-enqueue entry, a BullMQ job hash and its wait-list push), with no signature check, no " +
      "dedup answer and no scripts. Same signed 1 KiB Standard Webhooks hooks from autocannon, the " +
      "connections split evenly over the processes; rounds alternate the two.",
    rows,
    notes: i
      ? [
          `${i.seconds} s per measurement after a warm-up as long, ${i.connections} connections, median of ${i.rounds} round(s); with 2 processes p50/p99 are the worse process's.`,
        ]
      : [],
  };
}

type Saturation = NonNullable<NonNullable<E2eResult["contenders"][string]>["saturation"]>;

const cpu = (s: Saturation | null | undefined): number | null =>
  s && s.webUs !== null && s.workerUs !== null && s.redisUs !== null
    ? s.webUs + s.workerUs + s.redisUs
    : null;

/** The round whose delivered ratio was lowest, as a row of its own (a target may bound the worst round). */
function worstRound(label: string, e: E2eResult | undefined, floor: number): Row[] {
  const sy = e?.contenders.switchyard?.rounds?.saturation ?? [];
  const base = e?.contenders.baseline?.rounds?.saturation ?? [];
  if (sy.length < 2) return [];
  const pairs = sy.map((r, i) => [r.delivered, base[i]?.delivered ?? null] as const);
  const ratio = ([a, b]: readonly [number | null, number | null]): number =>
    a !== null && b !== null && b !== 0 ? a / b : Infinity;
  const worst = pairs.reduce((w, p) => (ratio(p) < ratio(w) ? p : w));
  return [
    row(`${label}: delivered, worst of ${sy.length} rounds`, "hooks/s", worst[0], worst[1], {
      on: "ratio",
      op: ">=",
      value: floor,
    }),
  ];
}

function e2eRows(label: string, e: E2eResult | undefined, floor: number, worstFloor?: number): Row[] {
  const sy = e?.contenders.switchyard?.saturation;
  const base = e?.contenders.baseline?.saturation;
  const atWarn = e?.contenders["switchyard@warn"]?.saturation;
  return [
    row(`${label}: delivered at saturation, after the warm-up`, "hooks/s", sy?.delivered, base?.delivered, {
      on: "ratio",
      op: ">=",
      value: floor,
    }),
    ...(worstFloor === undefined ? [] : worstRound(label, e, worstFloor)),
    row(`${label}: accepted at saturation`, "hooks/s", sy?.accepted, base?.accepted),
    row(`${label}: CPU per hook, web + worker + Redis`, "µs", cpu(sy), cpu(base), {
      on: "ratio",
      op: "<=",
      value: 1.25,
    }),
    ...(atWarn
      ? [
          row(
            `${label}: delivered at log level info (baseline column: the same tree at warn)`,
            "hooks/s",
            sy?.delivered,
            atWarn.delivered,
            { on: "ratio", op: ">=", value: 0.95 },
          ),
        ]
      : []),
  ];
}

function e2e(r: StepResults): Section {
  const h = r.e2eHttp;
  return {
    id: "e2e",
    title: "End to end",
    baseline:
      "a bare Hono route doing one BullMQ `Queue.add` of the body per hook (nothing verified, deduplicated or " +
      "persisted beside the job) and a bare BullMQ Worker (concurrency 64) that POSTs each body with undici " +
      "to the same receiver (HTTP), or publishes it, persistent and mandatory, on one amqplib confirm channel " +
      "and completes the job when the broker confirms (AMQP). Switchyard is the Procfile's `web` ×1 and " +
      "`worker` ×1 (compiled `dist/`) with one http sink, or one amqp sink (unbatched, the default). Each " +
      "contender runs alone on a fresh private Redis; arrivals are counted at the receiver (an HTTP server, " +
      "or a consumer of a queue bound to the run's own exchange on the local RabbitMQ).",
    rows: [...e2eRows("HTTP", h, 0.85, 0.75), ...e2eRows("AMQP", r.e2eAmqp, 0.8)],
    notes: h
      ? [
          `Saturation: ${h.connections} connections for ${h.seconds} s, the first ${h.warmup} s not counted, median of ${h.rounds} round(s) per sink.`,
        ]
      : [],
  };
}

/** The highest p99 of any round, when there were several (a target bounds every round). */
function worstP99(h: E2eResult | undefined, at: string): Row[] {
  const sy = h?.contenders.switchyard?.rounds?.latency ?? [];
  const base = h?.contenders.baseline?.rounds?.latency ?? [];
  if (sy.length < 2) return [];
  const worst = (rs: typeof sy): number | null =>
    rs.reduce<number | null>(
      (w, r) => (r.arrival99 !== null && (w === null || r.arrival99 > w) ? r.arrival99 : w),
      null,
    );
  return [
    row(`sent → delivered p99${at}, worst of ${sy.length} rounds`, "ms", worst(sy), worst(base), {
      on: "switchyard",
      op: "<",
      value: 50,
      unit: "ms",
    }),
  ];
}

function latency(r: StepResults): Section {
  const h = r.e2eHttp;
  const sy = h?.contenders.switchyard?.latency;
  const base = h?.contenders.baseline?.latency;
  const rate = h?.rate ?? null;
  const at = rate === null ? "" : ` at ${rate}/s`;
  const lost = [sy, base].some((x) => (x?.lost ?? 0) !== 0 || (x?.non2xx ?? 0) !== 0);
  return {
    id: "latency",
    title: "Latency",
    baseline:
      "the bare pair of the end-to-end scenario (HTTP sink), at the same rate. An open-loop sender posts " +
      "signed hooks at an even rate, half of Switchyard's saturation delivered/s measured in the same run; " +
      "latency is from the send (stamped in the body) to the arrival at the local receiver, over the hooks " +
      "sent after the warm-up.",
    rows: [
      row(`sent → delivered p50${at}`, "ms", sy?.arrival50, base?.arrival50, {
        on: "ratio",
        op: "<=",
        value: 2,
      }),
      row(`sent → delivered p99${at}`, "ms", sy?.arrival99, base?.arrival99, {
        on: "switchyard",
        op: "<",
        value: 30,
        unit: "ms",
      }),
      ...worstP99(h, at),
      row(`sent → 202 p50${at}`, "ms", sy?.ack50, base?.ack50),
      row(`sent → 202 p99${at}`, "ms", sy?.ack99, base?.ack99),
    ],
    notes: lost
      ? [
          `Undelivered or refused hooks: Switchyard ${sy?.lost}/${sy?.non2xx}, baseline ${base?.lost}/${base?.non2xx}.`,
        ]
      : [],
  };
}

function memory(r: StepResults): Section {
  const m = r.memory;
  return {
    id: "memory",
    title: "Memory",
    baseline:
      "bare BullMQ: one job per hook carrying its body (`Queue.add`, nothing else kept); dead-lettered: the " +
      "same job failed by a bare worker whose POST got a 422, attempts 1, kept in BullMQ's failed set. " +
      "Switchyard: signed hooks through the HTTP API, queued with the api role alone, dead-lettered with a " +
      "sink answering 422 and retries off, measured once every row is in the DLQ. Each measurement has its " +
      "own empty private redis-server; INFO `used_memory` growth over the hooks.",
    rows: [
      row("Redis bytes per queued hook", "B", m?.switchyard.queued, m?.baseline.queued, {
        on: "switchyard",
        op: "<=",
        value: 3072,
        unit: "B",
      }),
      row("Redis bytes per dead-lettered hook", "B", m?.switchyard.dead, m?.baseline.dead),
      row("keys per queued hook", "", m?.switchyard.keysQueued, m?.baseline.keysQueued),
      row("keys per dead-lettered hook", "", m?.switchyard.keysDead, m?.baseline.keysDead),
    ],
    notes: m ? [`${m.hooks.toLocaleString("en")} hooks per measurement.`] : [],
  };
}

function fanout(r: StepResults): Section {
  const f = r.fanout;
  const c = (name: string): NonNullable<typeof f>["contenders"][string] | undefined => f?.contenders[name];
  const [syFan, baseFan, syDrain, baseDrain] = [
    c("switchyard fan-out"),
    c("baseline fan-out"),
    c("switchyard drain"),
    c("baseline drain"),
  ];
  const n = (f?.endpoints ?? 1000).toLocaleString("en");
  return {
    id: "fanout",
    title: "Fanout",
    baseline:
      "a bare BullMQ Worker (same concurrency) POSTing the same 1 KiB body with undici, its jobs added with " +
      "`Queue.addBulk` (1,000 per call). Switchyard: `POST /v1/events` to an api-role process, a dispatch-role " +
      "process delivering; endpoints differ by path on one local receiver.",
    rows: [
      row(
        `1 event → ${n} endpoints: rows and jobs written (the 202; baseline: addBulk)`,
        "ms",
        syFan?.writtenMs,
        baseFan?.writtenMs,
      ),
      row(`1 event → ${n} endpoints: all delivered`, "ms", syFan?.deliveredMs, baseFan?.deliveredMs),
      row(`drain of ${n} queued deliveries`, "deliveries/s", syDrain?.rate, baseDrain?.rate, {
        on: "ratio",
        op: ">=",
        value: 0.8,
        source: "bench/scenarios/fanout/main.ts (the drain's like-for-like delivery rate)",
      }),
    ],
    notes: f ? [`Median of ${f.rounds} round(s), outbound concurrency ${f.concurrency}.`] : [],
  };
}

function dlq(r: StepResults): Section {
  const d = r.dlq;
  const n = d?.entries ?? 100_000;
  return {
    id: "dlq",
    title: "DLQ",
    baseline: `here the "baseline" is listing all ${n.toLocaleString("en")} entries (\`GET /v1/dlq\` in pages of 1,000, cursor to cursor); a page must cost O(page), not O(DLQ). The entries are real dead rows, made through the ledger.`,
    rows: [
      row(
        `one page of 100 (Switchyard) vs listing all ${n.toLocaleString("en")} (baseline)`,
        "ms",
        d?.pageMs,
        d?.fullMs,
        {
          on: "ratio",
          op: "<=",
          value: 0.05,
          source: DLQ_TARGET_SOURCE,
        },
      ),
    ],
    notes: d
      ? [
          `Page: median of ${d.pageRuns}; full listing: median of ${d.fullRuns}; filling took ${((d.fillMs ?? NaN) / 1000).toFixed(1)} s.`,
        ]
      : [],
  };
}

const BUILDERS: Record<Scenario, (r: StepResults) => Section> = {
  ingest,
  e2e,
  latency,
  memory,
  fanout,
  dlq,
  scale,
};

export function sections(selected: readonly Scenario[], results: StepResults): Section[] {
  return selected.map((s) => BUILDERS[s](results));
}

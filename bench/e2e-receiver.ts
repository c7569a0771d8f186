// The HTTP receiver of bench:e2e and bench:timeline: a bare node:http server in its own process that
// answers 200 to every POST and records, per delivery, when it arrived and when its hook was sent (read
// from the body, see e2e-hooks.ts), plus the Switchyard hook id when the request names one.
//   GET  /report?from=&to=  arrivals within [from, to] (ms since the epoch), and send → arrival
//                           percentiles of the hooks sent within [from, to]
//   GET  /arrivals          [hook id, arrival] of every delivery that named its hook
//   GET  /count, POST /reset
// Prints "ready <port>" on stdout once it listens.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sentAtOf, wallMs } from "./e2e-hooks.ts";

const CAPACITY = 1_000_000;
let arrived = new Float64Array(CAPACITY);
let sent = new Float64Array(CAPACITY);
let count = 0;
let ids: [string, number][] = [];

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function report(from: number, to: number): Record<string, number> {
  let inWindow = 0;
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = arrived[i]!;
    if (at >= from && at <= to) inWindow++;
    const s = sent[i]!;
    if (s >= from && s <= to) latencies.push(at - s);
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    count,
    arrivals: inWindow,
    latencies: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  };
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://receiver");
  const json = (value: unknown): void => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
  };
  if (req.method === "GET" && url.pathname === "/report")
    return json(report(Number(url.searchParams.get("from")), Number(url.searchParams.get("to"))));
  if (req.method === "GET" && url.pathname === "/arrivals") return json(ids);
  if (req.method === "GET" && url.pathname === "/count") return json({ count });
  if (req.method === "POST" && url.pathname === "/reset") {
    count = 0;
    ids = [];
    arrived = new Float64Array(CAPACITY);
    sent = new Float64Array(CAPACITY);
    return json({ count });
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const at = wallMs();
    res.writeHead(200, { "content-length": "0" }).end();
    if (count >= CAPACITY) return;
    arrived[count] = at;
    sent[count] = sentAtOf(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    count++;
    const hookId = req.headers["x-switchyard-id"];
    if (typeof hookId === "string") ids.push([hookId, at]);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

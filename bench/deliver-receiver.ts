// The HTTP receiver of bench:deliver: a bare node:http server that answers 200 to every POST and counts
// them, in its own process so it never shares an event loop with a contender. Counts are cumulative for
// the whole run; GET /wait?target=N answers once N deliveries have arrived, with the time the Nth one did,
// so the clock stops at the receiver and not whenever the orchestrator gets around to polling.
// Prints "ready <port>" on stdout once it listens.
import { type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

let count = 0;
let bytes = 0;
/** Wall-clock time (ms, sub-ms precision) at which `count` last changed. */
let lastAt = 0;
const waiters: { target: number; res: ServerResponse; timer: NodeJS.Timeout }[] = [];

function answer(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function wakeWaiters(): void {
  for (let i = waiters.length - 1; i >= 0; i--) {
    const w = waiters[i]!;
    if (count < w.target) continue;
    waiters.splice(i, 1);
    clearTimeout(w.timer);
    answer(w.res, { count, bytes, at: lastAt });
  }
}

const server = createServer((req, res) => {
  if (req.method === "GET") {
    const url = new URL(req.url ?? "/", "http://receiver");
    if (url.pathname === "/count") return answer(res, { count, bytes, at: lastAt });
    if (url.pathname === "/wait") {
      const target = Number(url.searchParams.get("target"));
      if (count >= target) return answer(res, { count, bytes, at: lastAt });
      const timer = setTimeout(
        () => {
          const i = waiters.findIndex((w) => w.res === res);
          if (i >= 0) waiters.splice(i, 1);
          answer(res, { count, bytes, at: lastAt, timedOut: true }, 504);
        },
        Number(url.searchParams.get("timeoutMs") ?? 60_000),
      );
      waiters.push({ target, res, timer });
      return;
    }
    return answer(res, { error: "not found" }, 404);
  }
  let size = 0;
  req.on("data", (chunk: Buffer) => (size += chunk.length));
  req.on("end", () => {
    count++;
    bytes += size;
    lastAt = performance.timeOrigin + performance.now();
    res.writeHead(200, { "content-length": "0" }).end();
    if (waiters.length > 0) wakeWaiters();
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

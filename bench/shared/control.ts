// The start signal of a bench:deliver contender. A child process takes a second or two to load its modules;
// that must not count, so each contender loads everything, prints "ready <port>" for a tiny control server,
// and only begins delivering on POST /start, which answers with the wall-clock time it began.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Serve POST /start (runs `start` once) and GET /cpu (CPU time used since the start, µs), and print
 * "ready <port>"; SIGTERM runs `stop` and exits.
 */
export function serveControl(start: () => Promise<void>, stop: () => Promise<void>): void {
  let started = false;
  let cpuAtStart = process.cpuUsage();
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/cpu") {
      const { user, system } = process.cpuUsage(cpuAtStart);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ us: user + system }));
      return;
    }
    if (req.method !== "POST" || req.url !== "/start" || started) {
      res.writeHead(started ? 409 : 404).end();
      return;
    }
    started = true;
    cpuAtStart = process.cpuUsage();
    const at = performance.timeOrigin + performance.now();
    start().then(
      () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ at })),
      (err: Error) => {
        process.stderr.write(`contender failed to start: ${err.stack ?? err.message}\n`);
        res.writeHead(500).end(err.message);
      },
    );
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
  });
  process.on("SIGTERM", () => {
    server.close();
    stop().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`contender failed to stop: ${err.message}\n`);
        process.exit(1);
      },
    );
  });
}

/** Ask the contender listening on `port` to begin; resolves with the time it began (ms since the epoch). */
export async function sendStart(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/start`, { method: "POST" });
  if (!res.ok) throw new Error(`contender on port ${port} did not start: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { at: number }).at;
}

/** CPU time (user + system, µs) the contender on `port` has used since it started. */
export async function cpuSinceStart(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/cpu`);
  return ((await res.json()) as { us: number }).us;
}

// A scriptable HTTP receiver on 127.0.0.1 for tests that need a real destination.
//
//   const rx = await startReceiver({ script: [500, 500, 200] });   // answers in order, then `fallback`
//   await sink.deliver(...);                                       // point the sink at `${rx.url}/path`
//   rx.requests[0]  // { method, path, headers (lower-cased), body (raw bytes), remotePort, answered, closed }
//   rx.script(429, { status: 429, headers: { "retry-after": "2" } }, "hang");  // queue more answers
//   await rx.waitForRequests(3);                                   // resolves once 3 have been recorded
//   await rx.close();                                              // also drops hung connections
//
// A reply is a status number (empty body), `{ status, headers?, body?, delayMs?, after? }`, "hang" (read the
// request, never answer) or "reset" (read the request, then destroy the socket). Unscripted requests get
// `fallback` (default 200). Requests are recorded after their body has been read in full, before the reply.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Reply =
  | number
  | "hang"
  | "reset"
  | {
      readonly status: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly body?: string | Buffer;
      readonly delayMs?: number;
      /** Answer only once this settles (then after `delayMs`, if given): the test decides when. */
      readonly after?: Promise<unknown>;
    };

export interface ReceivedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  /** Lower-cased names, as Node parses them. */
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The client's port: equal ports on two requests mean a reused keep-alive connection. */
  readonly remotePort: number | undefined;
  /** Date.now() when the request's body had been read. */
  readonly receivedAt: number;
  /** True once a response was sent in full (false for "hang"/"reset", or if the client left first). */
  readonly answered: boolean;
  /** Resolves when the exchange is over: the response finished or the connection closed. */
  readonly closed: Promise<void>;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly requests: readonly ReceivedRequest[];
  /** Append replies to the script. */
  script(...replies: Reply[]): void;
  /** The reply once the script has run out. */
  setFallback(reply: Reply): void;
  /** Resolves with the requests once at least `n` are recorded; rejects after `timeoutMs`. */
  waitForRequests(n: number, timeoutMs?: number): Promise<readonly ReceivedRequest[]>;
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: Exclude<Reply, "hang" | "reset">): void {
  const r = typeof reply === "number" ? { status: reply } : reply;
  const write = (): void => {
    if (res.destroyed) return;
    res.writeHead(r.status, { ...r.headers });
    res.end(r.body);
  };
  const delayed = (): void => {
    if (r.delayMs !== undefined) setTimeout(write, r.delayMs);
    else write();
  };
  if (r.after) void r.after.finally(delayed);
  else delayed();
}

/** Start a receiver on an ephemeral loopback port. */
export async function startReceiver(opts: { script?: Reply[]; fallback?: Reply } = {}): Promise<Receiver> {
  const queue: Reply[] = [...(opts.script ?? [])];
  let fallback: Reply = opts.fallback ?? 200;
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const record = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        remotePort: req.socket.remotePort,
        receivedAt: Date.now(),
        answered: false,
        closed: new Promise<void>((resolve) => res.once("close", () => resolve())),
      };
      res.once("finish", () => {
        record.answered = true;
      });
      requests.push(record);
      for (const wake of waiters) wake();
      const reply = queue.shift() ?? fallback;
      if (reply === "hang") return;
      if (reply === "reset") {
        req.socket.destroy();
        return;
      }
      send(res, reply);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (...replies) => void queue.push(...replies),
    setFallback: (reply) => {
      fallback = reply;
    },
    waitForRequests: (n, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (requests.length < n) return;
          cleanup();
          resolve(requests);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`receiver: ${requests.length} of ${n} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

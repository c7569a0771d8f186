// The destination of the chaos run's HTTP traffic: the http sink posts to /in, outbound endpoints to
// /out/<label>. Each request is checked with the reference Standard Webhooks verifier and, when it is
// answered 2xx, recorded as an arrival of the sender's id. The receiver can flap: answer 500, hang
// (read the request, never answer), or throttle (429 with Retry-After); only 2xx answers count as
// delivered, since only those tell Switchyard it may stop.
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import { Arrivals } from "./arrivals.ts";

/** How a request is answered: 200 (recorded), 500, never, or 429 with Retry-After: 1. */
export type ReceiverMode = "ok" | "fail" | "hang" | "throttle";

export interface ChaosReceiver {
  readonly url: string;
  /** Hooks from the http sink, keyed by the sender's `seq`. */
  readonly inbound: Arrivals;
  /** Events at the outbound endpoints, keyed `<label>/<event id>`. */
  readonly outbound: Arrivals;
  /** Answers given, by mode; and requests whose signature the reference verifier refused. */
  readonly answers: Record<ReceiverMode, number>;
  readonly badSignatures: { inbound: number; outbound: number };
  /** How each next request is answered (`() => "ok"` unless a fault says otherwise). */
  answerWith(choose: () => ReceiverMode): void;
  /** The secret requests to `path` (`/in`, `/out/<label>`) are signed with. */
  trust(path: string, secret: string): void;
  close(): Promise<void>;
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") out[k] = v;
  return out;
}

/** The sender's id inside a hook body (`{"seq": "..."}`), or undefined when it is not there. */
export function seqOf(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { seq?: unknown };
    return typeof parsed.seq === "string" ? parsed.seq : undefined;
  } catch {
    return undefined;
  }
}

export async function startChaosReceiver(): Promise<ChaosReceiver> {
  const verifiers = new Map<string, Webhook>();
  const sockets = new Set<Socket>();
  let chooseMode: () => ReceiverMode = () => "ok";
  const rx: Omit<ChaosReceiver, "url" | "close"> = {
    inbound: new Arrivals(),
    outbound: new Arrivals(),
    answers: { ok: 0, fail: 0, hang: 0, throttle: 0 },
    badSignatures: { inbound: 0, outbound: 0 },
    answerWith: (choose) => {
      chooseMode = choose;
    },
    trust: (path, secret) => void verifiers.set(path, new Webhook(secret)),
  };

  const signedBy = (path: string, body: Buffer, headers: Record<string, string>): boolean => {
    try {
      verifiers.get(path)?.verify(body.toString("utf8"), headers);
      return verifiers.has(path);
    } catch {
      return false;
    }
  };

  const record = (path: string, body: Buffer, headers: Record<string, string>): boolean => {
    const direction = path === "/in" ? "inbound" : path.startsWith("/out/") ? "outbound" : undefined;
    if (direction === undefined) return false;
    if (!signedBy(path, body, headers)) rx.badSignatures[direction] += 1;
    if (direction === "inbound") {
      const seq = seqOf(body);
      if (seq === undefined) return false;
      rx.inbound.add(seq, headers["x-switchyard-id"] ?? "?", headers["x-switchyard-attempt"]);
    } else {
      const eventId = headers["webhook-id"] ?? "?";
      rx.outbound.add(`${path.slice("/out/".length)}/${eventId}`, eventId);
    }
    return true;
  };

  const answer = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const mode = chooseMode();
    rx.answers[mode] += 1;
    switch (mode) {
      case "hang":
        return;
      case "fail":
        res.writeHead(500).end("flapping");
        return;
      case "throttle":
        res.writeHead(429, { "retry-after": "1" }).end("slow down");
        return;
      case "ok": {
        const path = (req.url ?? "").split("?")[0] ?? "";
        res.writeHead(record(path, body, headerMap(req)) ? 200 : 404).end();
        return;
      }
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => answer(req, res, Buffer.concat(chunks)));
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(rx, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

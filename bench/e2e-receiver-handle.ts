// The orchestrator's handle on the receiver process (e2e-receiver.ts): HTTP deliveries to its port, or
// AMQP deliveries to an exchange and queue of its own that it consumes.
import { startTarget } from "./support.ts";

/** Where an amqp sink (or the baseline's AMQP worker) publishes for this receiver to see it. */
export interface AmqpDestination {
  readonly url: string;
  readonly exchange: string;
  readonly routingKey: string;
}

export interface ReceiverReport {
  /** Deliveries so far, those that arrived within the window, and send → arrival (ms) of those sent in it. */
  readonly count: number;
  readonly arrivals: number;
  readonly latencies: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface ReceiverHandle {
  /** Base URL; deliveries go to `${url}/in`. */
  readonly url: string;
  /** Set when deliveries go to RabbitMQ instead of `${url}/in`. */
  readonly amqp?: AmqpDestination;
  report(from: number, to: number): Promise<ReceiverReport>;
  /** [hook id, arrival] of the deliveries that named their hook. */
  arrivals(): Promise<[string, number][]>;
  /** Resolve once `n` deliveries have arrived since the last reset. */
  waitFor(n: number, timeoutMs: number): Promise<void>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

let receivers = 0;

/** Start a receiver: HTTP, or with `amqpUrl` a consumer of a fresh exchange and queue on that broker. */
export async function startReceiver(amqpUrl?: string): Promise<ReceiverHandle> {
  const amqp = amqpUrl
    ? { url: amqpUrl, exchange: `bench-e2e-${process.pid}-${receivers++}`, routingKey: "bench" }
    : undefined;
  const child = await startTarget(
    "bench/e2e-receiver.ts",
    amqp ? ["amqp", amqp.url, amqp.exchange, amqp.routingKey] : [],
  );
  const url = `http://127.0.0.1:${child.port}`;
  const get = async <T>(path: string, method = "GET"): Promise<T> =>
    (await (await fetch(`${url}${path}`, { method })).json()) as T;
  return {
    url,
    ...(amqp ? { amqp } : {}),
    report: (from, to) => get<ReceiverReport>(`/report?from=${from}&to=${to}`),
    arrivals: () => get<[string, number][]>("/arrivals"),
    async waitFor(n, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      let count = 0;
      while ((count = (await get<{ count: number }>("/count")).count) < n) {
        if (Date.now() > deadline) throw new Error(`receiver has ${count} deliveries, waited for ${n}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    reset: async () => void (await get("/reset", "POST")),
    stop: () => child.stop(),
  };
}

// The orchestrator's handle on a receiver process (receiver-process.ts): HTTP deliveries to its port, or
// with `amqpUrl` AMQP deliveries to an exchange and queue of its own that it consumes.
import { fileURLToPath } from "node:url";
import type { ReceiverOptions } from "./receiver.ts";
import { startTarget } from "./support.ts";

const SCRIPT = fileURLToPath(new URL("./receiver-process.ts", import.meta.url));

/** Where an amqp sink (or the baseline worker) publishes for this receiver to see it. */
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
  /** Base URL; HTTP deliveries go to `${url}/in` (or any other path). */
  readonly url: string;
  /** Set when deliveries go to RabbitMQ instead. */
  readonly amqp?: AmqpDestination;
  /** Deliveries since the last reset. */
  count(): Promise<number>;
  /** Wait until `target` deliveries have arrived; resolves with when the last one did (ms since the epoch). */
  waitFor(target: number, timeoutMs: number): Promise<number>;
  /** With timestamps: arrivals and latencies of a window; [hook id, arrival] of the hooks that were named. */
  report(from: number, to: number): Promise<ReceiverReport>;
  arrivals(): Promise<[string, number][]>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

let receivers = 0;

export async function startReceiver(
  o: { readonly timestamps?: boolean; readonly amqpUrl?: string } = {},
): Promise<ReceiverHandle> {
  const amqp = o.amqpUrl
    ? { url: o.amqpUrl, exchange: `bench-recv-${process.pid}-${receivers++}`, routingKey: "bench" }
    : undefined;
  const options: ReceiverOptions = {
    ...(o.timestamps ? { timestamps: true } : {}),
    ...(amqp ? { amqp: { url: amqp.url, name: amqp.exchange, routingKey: amqp.routingKey } } : {}),
  };
  const child = await startTarget(SCRIPT, [JSON.stringify(options)]);
  const url = `http://127.0.0.1:${child.port}`;
  const call = async <T>(path: string, method = "GET"): Promise<T> =>
    (await (await fetch(`${url}${path}`, { method })).json()) as T;
  return {
    url,
    ...(amqp ? { amqp } : {}),
    count: async () => (await call<{ count: number }>("/count")).count,
    async waitFor(target, timeoutMs) {
      const r = await call<{ count: number; at: number; timedOut?: boolean }>(
        `/wait?target=${target}&timeoutMs=${timeoutMs}`,
      );
      if (r.timedOut) throw new Error(`receiver has ${r.count} deliveries, waited for ${target}`);
      return r.at;
    },
    report: (from, to) => call<ReceiverReport>(`/report?from=${from}&to=${to}`),
    arrivals: () => call<[string, number][]>("/arrivals"),
    reset: async () => void (await call("/reset", "POST")),
    stop: () => child.stop(),
  };
}

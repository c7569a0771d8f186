// The load of bench:ingest and bench:tracing: signed Standard Webhooks hooks, each with its own id,
// POSTed to source `bench` for a fixed time by autocannon; and the Switchyard config that takes them.
import autocannon from "autocannon";
import { Webhook } from "standardwebhooks";

export interface LoadResult {
  /** Accepted (2xx) hooks per second. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly accepted: number;
}

let counter = 0;

export async function signedLoad(
  port: number,
  opts: { secret: string; body: string; seconds: number; connections: number },
): Promise<LoadResult> {
  const webhook = new Webhook(opts.secret);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/webhooks/bench`,
    connections: opts.connections,
    duration: opts.seconds,
    requests: [
      {
        method: "POST",
        setupRequest: (req) => {
          const id = `msg_${process.pid}_${counter++}`;
          const now = new Date();
          return {
            ...req,
            body: opts.body,
            headers: {
              "content-type": "application/json",
              "webhook-id": id,
              "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
              "webhook-signature": webhook.sign(id, now, opts.body),
            },
          };
        },
      },
    ],
  });
  return {
    rps: result["2xx"] / opts.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    accepted: result["2xx"],
  };
}

/** Switchyard's config for the signed load: source `bench` verifying `secret`, one http sink (nothing delivers). */
export function signedSourceConfig(
  redisUrl: string,
  prefix: string,
  secret: string,
): Record<string, unknown> {
  return {
    redis: { url: redisUrl, prefix },
    http: { port: 0, host: "127.0.0.1" },
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
    sources: {
      bench: {
        verify: { type: "standard_webhooks", secrets: [secret] },
        dedup: "standard_webhooks",
        sinks: ["out"],
      },
    },
  };
}

// The two ends of bench:deliver's traffic: the ingest load (exactly N POSTs, each with its own dedup id) and
// the handle on the receiver child (deliver-receiver.ts) that every HTTP contender is timed by.
import autocannon from "autocannon";
import { startTarget } from "./support.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
let counter = 0;

/**
 * POST exactly `n` hooks to source `bench`; resolves with how many were accepted and how fast (timed to
 * the last accepted answer: autocannon itself ends a run on its one-second ticks).
 */
export function ingest(
  port: number,
  n: number,
  body: string,
): Promise<{ ok: number; non2xx: number; rate: number }> {
  const started = performance.now();
  let ok = 0;
  let lastOkAt = started;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}/webhooks/bench`,
        connections: CONNECTIONS,
        amount: n,
        requests: [
          {
            method: "POST",
            setupRequest: (req) => ({
              ...req,
              body,
              headers: { "content-type": "application/json", "x-bench-id": `b_${process.pid}_${counter++}` },
            }),
          },
        ],
      },
      (err: unknown, result: autocannon.Result) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        const seconds = (lastOkAt - started) / 1000;
        resolve({
          ok: result["2xx"],
          non2xx: result.non2xx + result.errors,
          rate: seconds > 0 ? ok / seconds : 0,
        });
      },
    );
    instance.on("response", (_client, status) => {
      if (status >= 200 && status < 300) {
        ok += 1;
        lastOkAt = performance.now();
      }
    });
  });
}

export interface Receiver {
  /** Base URL; deliveries go to `${url}/in`. */
  readonly url: string;
  /** Deliveries received so far in this run. */
  count(): Promise<number>;
  /** Wait until `target` deliveries have arrived; resolves with the time the last one did (ms since the epoch). */
  waitFor(target: number, timeoutMs: number): Promise<number>;
  stop(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const child = await startTarget("bench/deliver-receiver.ts", []);
  const url = `http://127.0.0.1:${child.port}`;
  const get = async (path: string): Promise<{ count: number; at: number; timedOut?: boolean }> => {
    const res = await fetch(`${url}${path}`);
    return (await res.json()) as { count: number; at: number; timedOut?: boolean };
  };
  return {
    url,
    count: async () => (await get("/count")).count,
    async waitFor(target, timeoutMs) {
      const r = await get(`/wait?target=${target}&timeoutMs=${timeoutMs}`);
      if (r.timedOut) throw new Error(`receiver has ${r.count} deliveries, waited for ${target}`);
      return r.at;
    },
    stop: () => child.stop(),
  };
}

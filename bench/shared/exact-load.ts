// The ingest load of bench:deliver, bench:tracing and bench:scale: exactly N unsigned POSTs to source
// `bench`, each with its own dedup id (x-bench-id).
import autocannon from "autocannon";

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

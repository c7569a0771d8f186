// The load of bench:e2e, bench:timeline and bench:syscalls, all of it signed 1 KiB hooks (hooks.ts):
//   saturate   autocannon, N connections for S seconds, as many as the target takes
//   exactly    autocannon, N hooks over `connections` connections (filling Redis for the memory figure)
//   fixedRate  open loop: hooks sent at an even rate whatever the answers do (autocannon's own rate
//              limit sends each second's quota in a burst), each answer's latency kept with its send time
import autocannon from "autocannon";
import { Pool } from "undici";
import { signedHook, wallMs } from "./hooks.ts";

function signedRequest(secret: string): autocannon.Request {
  return {
    method: "POST",
    setupRequest: (req) => ({ ...req, ...signedHook(secret) }),
  };
}

export interface Saturation {
  readonly accepted: number;
  readonly non2xx: number;
  readonly p99: number;
}

export async function saturate(
  url: string,
  secret: string,
  connections: number,
  seconds: number,
): Promise<Saturation> {
  const r = await autocannon({ url, connections, duration: seconds, requests: [signedRequest(secret)] });
  return { accepted: r["2xx"], non2xx: r.non2xx + r.errors, p99: r.latency.p99 };
}

export async function exactly(url: string, secret: string, n: number, connections: number): Promise<number> {
  const r = await autocannon({ url, connections, amount: n, requests: [signedRequest(secret)] });
  if (r["2xx"] !== n)
    throw new Error(`${r["2xx"]} of ${n} hooks accepted (${r.non2xx} non-2xx, ${r.errors} errors)`);
  return r["2xx"];
}

export interface FixedRate {
  /** Per request: when it was sent (ms since the epoch) and how long its answer took (ms; NaN: none). */
  readonly sentAt: Float64Array;
  readonly latency: Float64Array;
  readonly non2xx: number;
  /** With `keepIds`: the hook id each 2xx answer named, by request. */
  readonly ids: (string | undefined)[];
}

/** Send `rate` hooks/s for `seconds`, evenly, over a pool of `connections`. */
export async function fixedRate(
  url: string,
  secret: string,
  rate: number,
  seconds: number,
  opts: { connections?: number; keepIds?: boolean } = {},
): Promise<FixedRate> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: opts.connections ?? 64 });
  const total = Math.round(rate * seconds);
  const sentAt = new Float64Array(total);
  const latency = new Float64Array(total).fill(NaN);
  const ids: (string | undefined)[] = [];
  let non2xx = 0;
  let sent = 0;
  let answered = 0;
  const start = wallMs();
  const send = (i: number): void => {
    const { body, headers } = signedHook(secret);
    const at = wallMs();
    sentAt[i] = at;
    pool
      .request({ path: target.pathname, method: "POST", headers, body })
      .then(async (res) => {
        latency[i] = wallMs() - at;
        if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
        if (opts.keepIds && res.statusCode === 202) ids[i] = ((await res.body.json()) as { id: string }).id;
        else await res.body.dump();
      })
      .catch(() => non2xx++)
      .finally(() => answered++);
  };
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((wallMs() - start) * rate) / 1000));
      while (sent < due) send(sent++);
      if (sent === total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  while (answered < total) await new Promise((r) => setTimeout(r, 20));
  await pool.close();
  return { sentAt, latency, non2xx, ids };
}

/** p-th percentile (0–100) of the finite values. */
export function percentile(values: Iterable<number>, p: number): number {
  const sorted = Float64Array.from([...values].filter(Number.isFinite)).sort();
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

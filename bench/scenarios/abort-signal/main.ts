// bench:abort-signal — what hearing an attempt's abort costs an HTTP send, in one process, variants
// alternating block by block so a busy machine slows them alike: undici given no signal; given a fresh
// AbortSignal per request (what every delivery did before src/sinks/attempt-abort.ts: undici adds and
// removes an EventTarget listener on it); given an emitter tied to the signal through a WeakMap (one
// way tried first: the tie alone cost about as much); and given the attempt's own AttemptAbort beside
// its AbortController (what an attempt does now). The figure is this process's CPU per request (the
// receiver has its own process), median over blocks, and its ratio to no signal.
//
//   npm run bench:abort-signal -- [--blocks 7] [--requests 10000] [--connections 32]
import { parseArgs } from "node:util";
import { type Dispatcher, Pool } from "undici";
import { AttemptAbort } from "../../../src/sinks/attempt-abort.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { median, table } from "../../shared/support.ts";

const { values: args } = parseArgs({
  options: {
    blocks: { type: "string", default: "7" },
    requests: { type: "string", default: "10000" },
    connections: { type: "string", default: "32" },
  },
});
const blocks = Number(args.blocks);
const requests = Number(args.requests);
const connections = Number(args.connections);

const receiver = await startReceiver();
const url = new URL(`${receiver.url}/in`);
const pool = new Pool(url.origin, { connections });
const body = Buffer.from(JSON.stringify({ pad: "x".repeat(1000) }));
const headers = {
  "content-type": "application/json",
  "x-switchyard-id": "hk_bench",
  "x-switchyard-attempt": "1",
};

async function post(signal: Dispatcher.RequestOptions["signal"]): Promise<void> {
  const res = await pool.request({
    origin: url.origin,
    path: url.pathname,
    method: "POST",
    headers,
    body,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
    ...(signal ? { signal } : {}),
  });
  await res.body.dump();
}

const tied = new WeakMap<AbortSignal, AttemptAbort>();
const variants: Record<string, () => Promise<void>> = {
  "no signal": () => post(undefined),
  "a fresh AbortSignal": () => post(new AbortController().signal),
  "an emitter tied to the signal (WeakMap)": () => {
    const { signal } = new AbortController();
    tied.set(signal, new AttemptAbort());
    return post(tied.get(signal));
  },
  "the attempt's AttemptAbort (now)": () => {
    void new AbortController(); // an attempt still makes the signal it hands sinks
    return post(new AttemptAbort());
  },
};

/** CPU µs per request of `send`, `n` requests over `connections` concurrent loops. */
async function cpuPerRequest(send: () => Promise<void>, n: number): Promise<number> {
  const start = process.cpuUsage();
  let left = n;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (left-- > 0) await send();
    }),
  );
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

try {
  for (const send of Object.values(variants)) await cpuPerRequest(send, Math.min(requests, 3000)); // warm-up
  const figures = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
  for (let b = 0; b < blocks; b++)
    for (const [name, send] of Object.entries(variants))
      figures.get(name)?.push(await cpuPerRequest(send, requests));
  const none = median(figures.get("no signal") ?? []);
  console.log(
    table(
      [...figures].map(([name, values]) => ({
        variant: name,
        [`CPU µs per request (median of ${blocks} blocks of ${requests})`]: median(values).toFixed(1),
        "vs no signal": (median(values) / none).toFixed(2),
      })),
    ),
  );
} finally {
  await pool.close();
  await receiver.stop();
}

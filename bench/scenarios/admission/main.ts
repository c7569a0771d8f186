// bench:admission — what an outbound attempt's admission costs when its endpoint's breaker state has to
// come from Redis (a cold or stale cache: an endpoint that gets a delivery less often than the cache's
// refresh, as most endpoints of a fanout do), in one process, variants alternating block by block so a
// busy machine slows them alike: the breaker gate and the concurrency slot in one script call
// (SharedBreaker.gateWith with the slot riding along, what admission does), and the two scripts apart,
// sent together (what it did before). Each admission is of a new endpoint, so every gate asks Redis. The
// figures are this process's CPU and Redis's CPU per admission (Redis: INFO used_cpu, so run it on a
// Redis nothing else uses), medians over blocks, and their ratios.
//
//   npm run bench:admission -- [--blocks 12] [--admissions 2000] [--concurrency 64]
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { slotRider } from "../../../src/delivery/gate-rider.ts";
import { InflightGate } from "../../../src/delivery/inflight-gate.ts";
import { SharedBreaker } from "../../../src/delivery/shared-breaker.ts";
import { coalesceWrites } from "../../../src/runtime/coalesce-redis-writes.ts";
import { Keys } from "../../../src/store/keys.ts";
import { deletePrefix } from "../../../test/support/test-gateway.ts";
import { redisCpuUs } from "../../shared/measure.ts";
import { median, table } from "../../shared/support.ts";

const { values: args } = parseArgs({
  options: {
    blocks: { type: "string", default: "12" },
    admissions: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "64" },
  },
});
const blocks = Number(args.blocks);
const admissions = Number(args.admissions);
const concurrency = Number(args.concurrency);

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
coalesceWrites(redis); // as the gateway's command connection
const subscriber = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");

type Variant = "together" | "apart";
interface Figures {
  readonly cpuUs: number;
  readonly redisUs: number;
}

async function block(variant: Variant): Promise<Figures> {
  const prefix = `bench-admission-${randomBytes(4).toString("hex")}`;
  const keys = new Keys(prefix);
  const breaker = new SharedBreaker({
    redis,
    subscriber,
    keyOf: (id) => keys.endpointGate(id, "breaker"),
    channel: keys.breakerChannel,
    config: { failures: 5, open_ms: 1000, max_open_ms: 1000 },
    probeLeaseMs: 5000,
  });
  const inflight = new InflightGate(redis, (id) => keys.endpointGate(id, "inflight"));
  const admit = async (id: string): Promise<void> => {
    if (variant === "together") await breaker.gateWith(id, slotRider(inflight, id, "h", 8, 25_000));
    else await Promise.all([breaker.gate(id), inflight.acquire(id, "h", 8, 25_000)]);
  };
  let next = 0;
  const redis0 = await redisCpuUs(redis);
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < admissions) await admit(`ep_${next++}`);
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const redisUs = (await redisCpuUs(redis)) - redis0;
  await deletePrefix(redis, prefix);
  return { cpuUs: (cpu.user + cpu.system) / admissions, redisUs: redisUs / admissions };
}

const results: Record<Variant, Figures[]> = { together: [], apart: [] };
await block("together"); // warm-up, not counted
await block("apart");
for (let b = 0; b < blocks; b++) {
  const order: Variant[] = b % 2 === 0 ? ["together", "apart"] : ["apart", "together"];
  for (const variant of order) results[variant].push(await block(variant));
}
redis.disconnect();
subscriber.disconnect();

const med = (v: Variant, k: keyof Figures): number => median(results[v].map((f) => f[k]));
const row = (label: string, k: keyof Figures): Record<string, string> => ({
  measure: label,
  together: med("together", k).toFixed(1),
  apart: med("apart", k).toFixed(1),
  "together/apart": (med("together", k) / med("apart", k)).toFixed(2),
  "per block": results.together.map((f, i) => (f[k] / results.apart[i]![k]).toFixed(2)).join(" "),
});
console.log(
  `\nbench:admission  ${blocks} blocks of ${admissions} admissions of new endpoints, ${concurrency} at once\n`,
);
console.log(
  table([row("this process, CPU µs per admission", "cpuUs"), row("Redis, CPU µs per admission", "redisUs")]),
);

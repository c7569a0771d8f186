// How the delivery benchmarks (bench:deliver, bench:fanout) start and time a delivering contender: its
// child process (BENCH_NODE_ARGS, e.g. profiling flags, applies to these children alone), its start
// signal, and the CPU it and Redis used from that signal to its N-th arrival.
import type { Redis } from "ioredis";
import { cpuSinceStart, sendStart } from "./control.ts";
import { startTarget, type Target } from "./support.ts";

const CONTENDER_NODE_ARGS = process.env.BENCH_NODE_ARGS;
delete process.env.BENCH_NODE_ARGS; // startTarget reads it: set only while spawning a delivering child

/** Spawn a child that delivers: the only ones BENCH_NODE_ARGS (profiling) applies to. */
export function startDeliverer(script: string, args: string[]): Promise<Target> {
  if (CONTENDER_NODE_ARGS) process.env.BENCH_NODE_ARGS = CONTENDER_NODE_ARGS;
  try {
    return startTarget(script, args); // spawns synchronously, before its first await
  } finally {
    delete process.env.BENCH_NODE_ARGS;
  }
}

/** CPU time redis-server has used (µs). Redis is shared with whatever else runs here: indicative only. */
export async function redisCpuUs(redis: Redis): Promise<number> {
  const info = await redis.info("cpu");
  const field = (name: string): number => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? NaN);
  return (field("used_cpu_user") + field("used_cpu_sys")) * 1e6;
}

/** Arrival times (ms since the epoch) of the WARM-th and the N-th delivery of a contender. */
export type Arrivals = () => Promise<[number, number]>;

/** What a contender used between its start and its N-th arrival. */
export interface Usage {
  readonly startedAt: number;
  readonly times: [number, number];
  /** CPU µs of the delivering process, and of Redis. */
  readonly cpuUs: number;
  readonly redisUs: number;
}

/** Send `child` its start signal, run `load` (if any), until `arrived`; measure time and CPU. */
export async function measure(
  redis: Redis,
  child: Target,
  arrived: Arrivals,
  load?: () => Promise<void>,
): Promise<Usage> {
  const redis0 = await redisCpuUs(redis);
  const startedAt = await sendStart(child.port);
  const [times] = await Promise.all([arrived(), load?.()]);
  const cpuUs = await cpuSinceStart(child.port);
  return { startedAt, times, cpuUs, redisUs: (await redisCpuUs(redis)) - redis0 };
}

// The three measurements of bench:e2e, each on fresh processes and an empty Redis:
//   saturation  30 connections for S seconds: deliveries/s that reach the receiver (after a warm-up), and
//               the CPU each process and Redis spent per hook
//   fixed rate  an even rate (half of Switchyard's saturation by default): 202 and send → arrival latency
//   memory      web only, N hooks queued: Redis used_memory growth per hook
//   side by side  every contender at once under one fixed rate (each its own Redis and receiver)
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { type CommandStat, commandStatsPerHook, resetCommandStats } from "./redis-commandstats.ts";
import type { Contender, Running, StartOptions } from "./contenders.ts";
import { SECRET } from "./contenders.ts";
import { wallMs } from "./hooks.ts";
import { exactly, fixedRate, percentile, saturate } from "./load.ts";
import type { ReceiverHandle } from "../receiver-handle.ts";

/** A Redis (client and URL) and a receiver that one contender at a time has to itself. */
export interface PhaseEnv {
  readonly redis: Redis;
  readonly redisUrl: string;
  readonly receiver: ReceiverHandle;
}

async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info("cpu");
  const field = (name: string): number => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? NaN);
  return (field("used_cpu_user") + field("used_cpu_sys")) * 1000;
}

async function fresh(
  env: PhaseEnv,
  c: Contender,
  opts: Omit<StartOptions, "redisUrl" | "receiver">,
): Promise<Running> {
  await env.redis.flushall();
  await env.receiver.reset();
  return c.start({ ...opts, redisUrl: env.redisUrl, receiver: env.receiver });
}

export interface SaturationResult {
  readonly delivered: number;
  readonly accepted: number;
  readonly non2xx: number;
  /** CPU µs per delivered hook: web, worker, Redis. */
  readonly webUs: number;
  readonly workerUs: number;
  readonly redisUs: number;
}

export async function saturation(
  env: PhaseEnv,
  c: Contender,
  o: {
    connections: number;
    seconds: number;
    warmup: number;
    cpuProfDir?: (role: "web" | "worker") => string;
    /** Also read Redis's command statistics for the run (redis-commandstats.ts). */
    redisStats?: boolean;
  },
): Promise<SaturationResult & { commands?: CommandStat[] }> {
  const profile = o.cpuProfDir;
  const run = await fresh(env, c, { worker: true, ...(profile ? { profile } : {}) });
  try {
    // Profile the load only (cpu-prof-preload.mjs starts on this file).
    if (profile) {
      mkdirSync(join(profile("web"), ".."), { recursive: true });
      writeFileSync(join(profile("web"), "..", "start"), "");
    }
    if (o.redisStats) await resetCommandStats(env.redis);
    const cpu0 = [run.web.cpuMs(), run.worker!.cpuMs(), await redisCpuMs(env.redis)];
    const t0 = wallMs();
    const load = await saturate(run.url, SECRET, o.connections, o.seconds);
    const t1 = wallMs();
    const cpu1 = [run.web.cpuMs(), run.worker!.cpuMs(), await redisCpuMs(env.redis)];
    const all = await env.receiver.report(t0, t1);
    const steady = await env.receiver.report(t0 + o.warmup * 1000, t1);
    const perHook = (i: number): number => ((cpu1[i]! - cpu0[i]!) * 1000) / Math.max(1, all.arrivals);
    return {
      delivered: steady.arrivals / ((t1 - t0) / 1000 - o.warmup),
      accepted: load.accepted / o.seconds,
      non2xx: load.non2xx,
      webUs: ((cpu1[0]! - cpu0[0]!) * 1000) / Math.max(1, load.accepted),
      workerUs: perHook(1),
      redisUs: perHook(2),
      ...(o.redisStats ? { commands: await commandStatsPerHook(env.redis, all.arrivals) } : {}),
    };
  } finally {
    await run.stop();
  }
}

export interface FixedRateResult {
  readonly rate: number;
  readonly ack50: number;
  readonly ack99: number;
  readonly arrival50: number;
  readonly arrival99: number;
  readonly lost: number;
  readonly non2xx: number;
  /** CPU µs per delivered hook: web, worker, Redis. */
  readonly webUs: number;
  readonly workerUs: number;
  readonly redisUs: number;
}

async function underFixedRate(
  env: PhaseEnv,
  run: Running,
  o: { rate: number; seconds: number; warmup: number },
): Promise<FixedRateResult> {
  const cpu0 = [run.web.cpuMs(), run.worker!.cpuMs(), await redisCpuMs(env.redis)];
  const load = await fixedRate(run.url, SECRET, o.rate, o.seconds);
  const from = load.sentAt[0]! + o.warmup * 1000;
  const to = load.sentAt[load.sentAt.length - 1]!;
  const accepted = load.sentAt.length - load.non2xx;
  await env.receiver.waitFor(accepted, 30_000).catch(() => undefined);
  const cpu1 = [run.web.cpuMs(), run.worker!.cpuMs(), await redisCpuMs(env.redis)];
  const arrivals = await env.receiver.report(from, to);
  const acks = [...load.latency].filter((_, i) => load.sentAt[i]! >= from);
  const perHook = (i: number): number => ((cpu1[i]! - cpu0[i]!) * 1000) / Math.max(1, arrivals.count);
  return {
    rate: o.rate,
    ack50: percentile(acks, 50),
    ack99: percentile(acks, 99),
    arrival50: arrivals.p50,
    arrival99: arrivals.p99,
    lost: accepted - arrivals.count,
    non2xx: load.non2xx,
    webUs: perHook(0),
    workerUs: perHook(1),
    redisUs: perHook(2),
  };
}

export async function atFixedRate(
  env: PhaseEnv,
  c: Contender,
  o: { rate: number; seconds: number; warmup: number },
): Promise<FixedRateResult> {
  const run = await fresh(env, c, { worker: true });
  try {
    return await underFixedRate(env, run, o);
  } finally {
    await run.stop();
  }
}

/**
 * Every contender at once, each with its own Redis and receiver, under the same fixed rate over the same
 * seconds: whatever else loads the machine loads them all alike, so their CPU per hook and latencies
 * compare even when the machine is busy.
 */
export async function sideBySide(
  envs: readonly PhaseEnv[],
  cs: readonly Contender[],
  o: { rate: number; seconds: number; warmup: number },
): Promise<FixedRateResult[]> {
  const runs = await Promise.all(cs.map((c, i) => fresh(envs[i]!, c, { worker: true })));
  try {
    return await Promise.all(runs.map((run, i) => underFixedRate(envs[i]!, run, o)));
  } finally {
    await Promise.all(runs.map((run) => run.stop()));
  }
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info("memory"))?.[1]);
}

/** Redis bytes per queued hook: `n` hooks into the web process alone, nothing delivering them. */
export async function memoryPerHook(
  env: PhaseEnv,
  c: Contender,
  o: { hooks: number; connections: number },
): Promise<number> {
  const run = await fresh(env, c, { worker: false });
  try {
    const before = await usedMemory(env.redis);
    await exactly(run.url, SECRET, o.hooks, o.connections);
    return ((await usedMemory(env.redis)) - before) / o.hooks;
  } finally {
    await run.stop();
  }
}

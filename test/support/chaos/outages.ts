// When things were unavailable during a chaos run, measured from outside: a probe writing to Redis (to
// every master of a cluster) every 100 ms on a connection of its own, and the moments the senders were
// refused. Side by side they tell how long the gateway stayed unavailable after Redis itself was back.
import { Cluster, Redis } from "ioredis";
import { keySlot } from "../../../src/store/key-slot.ts";

/** Failure moments (ms since the epoch) grouped into [first, last] windows split by quiet gaps. */
export function windowsOf(moments: readonly number[], gapMs = 1000): [number, number][] {
  const sorted = [...moments].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const t of sorted) {
    const last = out[out.length - 1];
    if (last && t - last[1] <= gapMs) last[1] = t;
    else out.push([t, t]);
  }
  return out;
}

/**
 * `12.3–15.1 s (2.8 s)` per window of at least `minMs`, relative to `t0`; shorter ones (a slow write, a
 * single refused try) are only counted.
 */
export function formatWindows(windows: readonly [number, number][], t0: number, minMs = 500): string {
  const s = (ms: number): string => ((ms - t0) / 1000).toFixed(1);
  const long = windows.filter(([a, b]) => b - a >= minMs);
  const parts = long.map(([a, b]) => `${s(a)}–${s(b)} s (${((b - a) / 1000).toFixed(1)} s)`);
  const short = windows.length - long.length;
  if (short > 0) parts.push(`${short} shorter than ${minMs / 1000} s`);
  return parts.join(", ") || "none";
}

/** Commands fail at once when the connection is away, and after 500 ms when it does not answer. */
const FAIL_FAST = { maxRetriesPerRequest: 0, commandTimeout: 500, connectTimeout: 500 } as const;

/**
 * A write every `everyMs` to each of `keys` (one key on one Redis; on a cluster one key in each master's
 * slots, so a master failing over shows); `failures` holds the moments a write failed or took over
 * 500 ms. The connection is its own, made to fail fast rather than queue.
 */
export class RedisProbe {
  readonly failures: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly conn: Redis | Cluster,
    private readonly keys: readonly string[] = ["chaos:probe"],
  ) {
    this.conn.on("error", () => undefined);
  }

  /** A probe of the one Redis at `url`. */
  static single(url: string): RedisProbe {
    return new RedisProbe(
      new Redis(url, { enableOfflineQueue: false, ...FAIL_FAST, retryStrategy: () => 50 }),
    );
  }

  /**
   * A probe of the cluster on `ports`, writing one key in each master's slots (the slots stay put when
   * a replica takes over: the key's writes then go to the new master).
   */
  static async cluster(ports: readonly number[]): Promise<RedisProbe> {
    const conn = new Cluster(
      ports.map((port) => ({ host: "127.0.0.1", port })),
      {
        lazyConnect: true,
        enableOfflineQueue: false,
        clusterRetryStrategy: () => 50,
        redisOptions: FAIL_FAST,
      },
    );
    conn.on("error", () => undefined);
    // Resolves once the slots are known.
    await conn.connect();
    const masters = new Set(conn.slots.map((nodes) => nodes[0])).size;
    const keyOf = new Map<string, string>();
    for (let i = 0; keyOf.size < masters && i < 10_000; i++) {
      const key = `chaos:probe:{p${i}}`;
      const master = conn.slots[keySlot(key)]?.[0];
      if (master !== undefined && !keyOf.has(master)) keyOf.set(master, key);
    }
    return new RedisProbe(conn, [...keyOf.values()]);
  }

  start(everyMs = 100): void {
    this.timer = setInterval(() => {
      const sent = Date.now();
      for (const key of this.keys)
        this.conn.set(key, String(sent)).then(
          () => {
            if (Date.now() - sent > 500) this.failures.push(sent);
          },
          () => this.failures.push(sent),
        );
    }, everyMs);
  }

  /** How many keys the probe writes, one per master on a cluster. */
  get width(): number {
    return this.keys.length;
  }

  stop(): void {
    clearInterval(this.timer);
    this.conn.disconnect();
  }
}

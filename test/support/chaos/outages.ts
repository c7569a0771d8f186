// When things were unavailable during a chaos run, measured from outside: a probe writing to Redis
// every 100 ms on a connection of its own, and the moments the senders were refused. Side by side they
// tell how long the gateway stayed unavailable after Redis itself was back.
import { Redis } from "ioredis";

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

/** A write every `everyMs`; `failures` holds the moments a write failed or took over 500 ms. */
export class RedisProbe {
  readonly failures: number[] = [];
  private readonly conn: Redis;
  private timer: NodeJS.Timeout | undefined;

  constructor(url: string) {
    this.conn = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      connectTimeout: 500,
      retryStrategy: () => 50,
    });
    this.conn.on("error", () => undefined);
  }

  start(everyMs = 100): void {
    this.timer = setInterval(() => {
      const sent = Date.now();
      this.conn.set("chaos:probe", String(sent)).then(
        () => {
          if (Date.now() - sent > 500) this.failures.push(sent);
        },
        () => this.failures.push(sent),
      );
    }, everyMs);
  }

  /** Redis's AOF size and memory use now, for the report (`?` when Redis does not answer). */
  async sizes(): Promise<string> {
    const field = (info: string, name: string): string => {
      const bytes = Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1]);
      return Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(1)} MiB` : "?";
    };
    try {
      const info = (await this.conn.info("persistence")) + (await this.conn.info("memory"));
      return `AOF ${field(info, "aof_current_size")}, memory ${field(info, "used_memory")}`;
    } catch (err) {
      return `? (${(err as Error).message})`;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.conn.disconnect();
  }
}

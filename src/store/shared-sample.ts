// A sample of something every process wants but only one needs to read per interval (the queue depths
// behind the ingest depth gate and the queue gauges): whoever comes first in an interval takes the turn,
// reads, and publishes; the others take what was published. One small key pair per sample, on its own
// hash tag.
import { randomUUID } from "node:crypto";
import { LuaScript } from "./lua-script.ts";
import type { RedisClient } from "./redis-client.ts";

const turnScript = new LuaScript("take-sample-turn-2.lua", 2);

/** The caller reads and publishes (`mine`), or gets the latest published sample (undefined if none). */
export type SampleTurn =
  { readonly mine: true } | { readonly mine: false; readonly sample: string | undefined };

export class SharedSample {
  private readonly token = randomUUID();

  /** `lockKey` and `sampleKey` must share a hash tag (see Keys.sampleTurn, Keys.sample). */
  constructor(
    private readonly redis: RedisClient,
    private readonly lockKey: string,
    private readonly sampleKey: string,
  ) {}

  /** Take this interval's turn, or learn the latest sample; one round trip. */
  async turn(intervalMs: number): Promise<SampleTurn> {
    const reply = (await turnScript.run(
      this.redis,
      [this.lockKey, this.sampleKey],
      [this.token, intervalMs],
    )) as [number, (string | null)?];
    return reply[0] === 1 ? { mine: true } : { mine: false, sample: reply[1] ?? undefined };
  }

  /** Publish a sample; it lapses after `ttlMs` if nobody takes a turn again (every sampler gone). */
  async publish(sample: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.sampleKey, sample, "PX", ttlMs);
  }
}

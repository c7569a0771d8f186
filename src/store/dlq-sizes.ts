// How many dead deliveries each DLQ index holds, summed over the buckets, and the one-per-interval record
// of `switchyard.dlq.threshold` when an index holds too many. The indexes are the ledger's own (the rows
// are listed in them in the script that kills them), so a size costs a ZCARD per index and bucket: read
// by the recovery tick, never on a request.
import type { DlqIndexName, Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import type { OpsOutbox } from "./ops-outbox.ts";
import { type RedisClient, pipelineByNode } from "./redis-client.ts";

const recordScript = new LuaScript("ops/record-dlq-threshold-3.lua", 3);

/** The indexes a threshold watches: everything, and each sink's, endpoint's and tenant's. */
const WATCHED = /^(all|(sink|endpoint|tenant):.+)$/;

export class DlqSizes {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    private readonly facts: OpsOutbox,
  ) {}

  /** The size of every watched index that has members, by name. */
  async sizes(): Promise<Map<DlqIndexName, number>> {
    const registries = this.keys.buckets.map((b) => this.keys.dlqIndexes(b));
    const members = (await pipelineByNode(this.redis, registries, (pipe, key) => pipe.smembers(key))) as (
      string[] | null
    )[];
    const indexes: { key: string; name: DlqIndexName }[] = [];
    this.keys.buckets.forEach((b, i) => {
      const prefix = this.keys.dlqIndex(b, "all").slice(0, -"all".length);
      for (const key of members[i] ?? []) {
        const name = key.slice(prefix.length);
        if (key.startsWith(prefix) && WATCHED.test(name)) indexes.push({ key, name: name as DlqIndexName });
      }
    });
    const counts = await pipelineByNode(
      this.redis,
      indexes.map((x) => x.key),
      (pipe, key) => pipe.zcard(key),
    );
    const sizes = new Map<DlqIndexName, number>();
    indexes.forEach(({ name }, i) => sizes.set(name, (sizes.get(name) ?? 0) + Number(counts[i] ?? 0)));
    return sizes;
  }

  /**
   * Record the fact `entryJson` under `eventId` for `index` unless one was recorded for it within
   * `intervalMs`. True if it was recorded.
   */
  async recordThreshold(
    index: DlqIndexName,
    intervalMs: number,
    eventId: string,
    entryJson: string,
  ): Promise<boolean> {
    const outbox = this.keys.opsOutbox(this.keys.opsTag);
    const reply = await recordScript.run(
      this.redis,
      [this.keys.opsDlqThreshold(index), outbox, this.keys.opsDirty],
      [intervalMs, eventId, entryJson],
    );
    if (reply !== 1) return false;
    await this.facts.wrote(outbox);
    return true;
  }
}

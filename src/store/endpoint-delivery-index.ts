// Each endpoint's deliveries, newest first: rows live in their event's bucket, so an endpoint's rows are
// found through an index of their own, one sorted set per endpoint (its own hash tag, beside its limits).
// The index is written before the rows (a listed id whose row is missing, or expired, is skipped), so a
// row is never left out of it; it is trimmed as it is written and removed with its endpoint.
import type { DeliveryRow } from "../domain/delivery.ts";
import type { IndexPosition } from "../domain/dlq.ts";
import type { DeliveryId } from "../domain/ids.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import { sliceByScore } from "./score-slice.ts";
import { type RedisClient, isCluster } from "./redis-client.ts";
import { inGroups } from "./group-indexes.ts";

const indexScript = new LuaScript("index-endpoint-deliveries-n.lua", "n", { oneSlotOnClusterOnly: true });

/** The most deliveries one endpoint's index lists (the oldest go first). */
export const MAX_INDEXED_PER_ENDPOINT = 10_000;

/**
 * The oldest creation time a listed row can have at `now`: a row ends within retention_s of its creation
 * (the config bounds its retries by it) and is kept retention_s after that.
 */
function oldestListed(now: number, retentionS: number): number {
  return now - 2 * retentionS * 1000;
}

/** The states an endpoint's deliveries are filtered by (as the API shows them). */
export type ListedState = "pending" | "retrying" | "delivered" | "dead";

export interface EndpointDeliveryQuery {
  readonly limit: number;
  readonly state?: ListedState;
  /** Only deliveries created at or after this time (ms). */
  readonly since?: number;
  readonly after?: IndexPosition;
}

export interface EndpointDeliveryPage {
  readonly rows: readonly DeliveryRow[];
  /** Where the next page starts; undefined when nothing older is left. */
  readonly next: IndexPosition | undefined;
}

/** The state a row is listed as: an attempt in flight shows as what it was before (views.ts does the same). */
export function listedState(row: DeliveryRow): ListedState {
  if (row.state !== "sending") return row.state;
  return row.attempts > 1 ? "retrying" : "pending";
}

export class EndpointDeliveryIndex {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
  ) {}

  /**
   * On a single Redis, what the publish script needs to list new deliveries itself (its rows and these
   * indexes can share one call there): one index key per entry, in order, and the script's arguments
   * (count, oldest, cap; see publish-event-n.lua). Undefined on a cluster, where an index is in its
   * endpoint's slot, not the event's: `add` lists them with a call of their own.
   */
  listedInScript(
    entries: readonly { readonly endpoint: string }[],
    now: number,
    retentionS: number,
  ): { keys: string[]; args: [number, number, number] } | undefined {
    if (isCluster(this.redis)) return undefined;
    return {
      keys: entries.map((e) => this.keys.endpointDeliveries(e.endpoint)),
      args: [entries.length, oldestListed(now, retentionS), MAX_INDEXED_PER_ENDPOINT],
    };
  }

  /**
   * List new deliveries (each with its endpoint), created at `now`: one script call on a single Redis,
   * one per slot on a cluster. `retentionS`: how long a finished row is kept (see oldestListed).
   */
  async add(
    entries: readonly { readonly endpoint: string; readonly id: DeliveryId }[],
    now: number,
    retentionS: number,
  ): Promise<void> {
    const oldest = oldestListed(now, retentionS);
    const keyOf = (e: { endpoint: string }): string => this.keys.endpointDeliveries(e.endpoint);
    const slotOf = isCluster(this.redis) ? (e: { endpoint: string }) => e.endpoint : () => "";
    await inGroups(entries, slotOf, async (group) => {
      await indexScript.run(this.redis, group.map(keyOf), [
        now,
        oldest,
        MAX_INDEXED_PER_ENDPOINT,
        ...group.map((e) => e.id),
      ]);
      return group.map(() => undefined);
    });
  }

  /**
   * One page of the endpoint's deliveries, newest first, read through `ledger`. Reads at most `maxScan`
   * index entries, so a sparse state filter can answer a short (even empty) page with a `next`.
   */
  async page(
    ledger: Pick<DeliveryStore, "getMany">,
    endpoint: string,
    q: EndpointDeliveryQuery,
    maxScan = Math.max(q.limit * 5, 1000),
  ): Promise<EndpointDeliveryPage> {
    const key = this.keys.endpointDeliveries(endpoint);
    const rows: DeliveryRow[] = [];
    let after = q.after;
    let scanned = 0;
    while (rows.length < q.limit && scanned < maxScan) {
      const chunk = Math.min(Math.max(q.limit - rows.length, 50), maxScan - scanned);
      const { members, more } = await this.slice(key, q.since, after, chunk);
      scanned += members.length;
      const found = await ledger.getMany(members.map((m) => m.id as DeliveryId));
      for (let i = 0; i < members.length; i++) {
        const row = found[i];
        after = members[i];
        if (row && (q.state === undefined || listedState(row) === q.state)) rows.push(row);
        if (rows.length === q.limit) return { rows, next: after };
      }
      if (!more) return { rows, next: undefined };
    }
    return { rows, next: after };
  }

  /** Up to `count` entries strictly older than `after` (by time, then id), newest first. */
  private slice(
    key: string,
    since: number | undefined,
    after: IndexPosition | undefined,
    count: number,
  ): Promise<{ members: IndexPosition[]; more: boolean }> {
    return sliceByScore(
      this.redis,
      key,
      "desc",
      "+inf",
      since === undefined ? "-inf" : String(since),
      after,
      count,
    );
  }
}

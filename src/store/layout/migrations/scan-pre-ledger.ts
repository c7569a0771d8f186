// Walking the pre-ledger keys of a prefix: one SCAN over `{<prefix>}:*` per master, a batch at a time,
// and the census of what kinds of key it holds (the 0 -> 1 migration's plan and its first step).
import { type RedisClient, serversOf } from "../../redis-client.ts";
import { literalPrefixPattern } from "../detect-layout.ts";
import { type PreLedgerKeyKind, preLedgerKindOf } from "./pre-ledger-layout.ts";

/** Call `each` with every batch of keys starting with `start` (a key deleted meanwhile may be skipped). */
export async function scanKeys(
  redis: RedisClient,
  start: string,
  each: (batch: readonly string[]) => Promise<void>,
): Promise<void> {
  for (const server of serversOf(redis)) {
    let cursor = "0";
    do {
      const [next, batch] = await server.scan(cursor, "MATCH", literalPrefixPattern(start), "COUNT", 500);
      cursor = next;
      if (batch.length > 0) await each(batch);
    } while (cursor !== "0");
  }
}

export interface PreLedgerCensus {
  readonly counts: Readonly<Record<PreLedgerKeyKind, number>>;
  /** Keys the pre-ledger release never wrote: how many, and a few of them. */
  readonly unknown: number;
  readonly unknownExamples: readonly string[];
}

export async function censusOf(redis: RedisClient, base: string): Promise<PreLedgerCensus> {
  const counts: Record<PreLedgerKeyKind, number> = {
    hook: 0,
    dedup: 0,
    dlq: 0,
    replay: 0,
    queue: 0,
    lock: 0,
    pending: 0,
  };
  let unknown = 0;
  const unknownExamples: string[] = [];
  await scanKeys(redis, `${base}:`, async (batch) => {
    for (const key of batch) {
      const kind = preLedgerKindOf(base, key);
      if (kind !== undefined) counts[kind] += 1;
      else if (++unknown <= 3) unknownExamples.push(key);
    }
  });
  return { counts, unknown, unknownExamples };
}

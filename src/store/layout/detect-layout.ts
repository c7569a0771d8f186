// Which layout a prefix holds when no layout version was ever written: nothing at all (a fresh Redis),
// the delivery ledger's keys (a deployment that ran before the version key existed: layout 1), or
// pre-ledger keys (layout 0). The two plans are told apart by their hash tags: before the ledger every
// key was `{<prefix>}:…`; since, every key is `{<prefix>:<tag>}:…`. Runs once, when the version key is
// missing: one SCAN over the keys that start with `{<prefix>` on every master. Both plans at once is a
// 0 -> 1 migration halfway, or a prefix two releases wrote to (assess-layout.ts tells them apart).
import type { Keys } from "../keys.ts";
import { type RedisClient, serversOf } from "../redis-client.ts";

export type UnstampedLayout =
  | { readonly kind: "empty" }
  | { readonly kind: "ledger"; readonly example: string }
  | {
      readonly kind: "pre-ledger";
      readonly example: string;
      /** A ledger key found beside the pre-ledger ones (a mixed prefix, or a 0 -> 1 migration halfway). */
      readonly ledgerExample?: string;
    };

/** A SCAN MATCH pattern matching `text` literally, then anything. */
export function literalPrefixPattern(text: string): string {
  return `${text.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
}

/** Classify the keys under `keys.prefix`; stops once it has seen a key of each plan. */
export async function detectUnstampedLayout(redis: RedisClient, keys: Keys): Promise<UnstampedLayout> {
  const preLedger = `{${keys.prefix}}:`;
  const ledger = `{${keys.prefix}:`;
  // The layout's own keys (a lock, step markers) are not data.
  const layoutTag = `{${keys.prefix}:layout}`;
  let ledgerExample: string | undefined;
  let preLedgerExample: string | undefined;
  for (const server of serversOf(redis)) {
    let cursor = "0";
    do {
      const [next, batch] = await server.scan(
        cursor,
        "MATCH",
        literalPrefixPattern(`{${keys.prefix}`),
        "COUNT",
        1000,
      );
      cursor = next;
      for (const key of batch) {
        if (key.startsWith(preLedger)) preLedgerExample ??= key;
        else if (ledgerExample === undefined && key.startsWith(ledger) && !key.startsWith(layoutTag))
          ledgerExample = key;
      }
      if (preLedgerExample !== undefined && ledgerExample !== undefined)
        return { kind: "pre-ledger", example: preLedgerExample, ledgerExample };
    } while (cursor !== "0");
  }
  if (preLedgerExample !== undefined) return { kind: "pre-ledger", example: preLedgerExample };
  return ledgerExample === undefined ? { kind: "empty" } : { kind: "ledger", example: ledgerExample };
}

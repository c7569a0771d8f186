// Hooks that failed verification, kept for an operator to inspect (`on_verify_failure: quarantine`).
// Anyone can send a bad signature, so this store is capped by count and bytes and short-lived: it can
// never become unauthenticated storage. Nothing in it is dedup-parsed or delivered.
import type { RedisClient } from "./redis-client.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";

const addScript = new LuaScript("add-quarantined-4.lua", 4);

export interface QuarantinedHook {
  readonly id: string;
  readonly source: string;
  readonly tenant: string | undefined;
  readonly received_at: number;
  /** Why verification failed (never a secret). */
  readonly reason: string;
  readonly size: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export type QuarantineOutcome = "kept" | "too_large";

export interface QuarantineLimits {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlS: number;
}

export class QuarantineStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    private readonly limits: QuarantineLimits,
  ) {}

  /**
   * Keep `hook`, evicting expired and oldest entries as the caps require; `too_large` (nothing kept,
   * nothing evicted) if it alone is over the byte cap.
   */
  async add(hook: Omit<QuarantinedHook, "size"> & { readonly body: Buffer }): Promise<QuarantineOutcome> {
    const headers = JSON.stringify(hook.headers);
    const size = hook.body.length + headers.length;
    const fields: (string | Buffer)[] = [
      "id",
      hook.id,
      "source",
      hook.source,
      "received_at",
      String(hook.received_at),
    ];
    fields.push("reason", hook.reason, "size", String(hook.body.length), "hdr", headers, "body", hook.body);
    if (hook.tenant !== undefined) fields.push("tenant", hook.tenant);
    const [kept, ...evicted] = (await addScript.run(
      this.redis,
      [
        this.keys.quarantineIndex,
        this.keys.quarantineBytes,
        this.keys.quarantineSizes,
        this.keys.quarantined(hook.id),
      ],
      [
        hook.id,
        hook.received_at,
        this.limits.ttlS,
        this.limits.maxEntries,
        this.limits.maxBytes,
        size,
        ...fields,
      ],
    )) as [number, ...string[]];
    // The evicted entries' hashes: one slot, one command (they expire with the TTL if this fails).
    if (evicted.length > 0) await this.redis.unlink(...evicted.map((id) => this.keys.quarantined(id)));
    return kept === 1 ? "kept" : "too_large";
  }

  /** Newest first, `limit` at most, older than `before` (ms) when given; `tenant` narrows to one tenant. */
  async list(q: { limit: number; before?: number; tenant?: string }): Promise<QuarantinedHook[]> {
    const ids = await this.redis.zrevrangebyscore(
      this.keys.quarantineIndex,
      q.before === undefined ? "+inf" : `(${q.before}`,
      "-inf",
      "LIMIT",
      0,
      q.tenant === undefined ? q.limit : Math.max(q.limit * 10, 100),
    );
    const pipe = this.redis.pipeline();
    for (const id of ids)
      pipe.hmget(this.keys.quarantined(id), "id", "source", "tenant", "received_at", "reason", "size", "hdr");
    const rows = ((await pipe.exec()) ?? []).map(([, v]) => v as (string | null)[]);
    const out: QuarantinedHook[] = [];
    for (const r of rows) {
      const hook = parse(r);
      if (hook && (q.tenant === undefined || hook.tenant === q.tenant)) out.push(hook);
      if (out.length === q.limit) break;
    }
    return out;
  }

  async get(id: string): Promise<QuarantinedHook | undefined> {
    const key = this.keys.quarantined(id);
    const fields = await this.redis.hmget(
      key,
      "id",
      "source",
      "tenant",
      "received_at",
      "reason",
      "size",
      "hdr",
    );
    const hook = parse(fields);
    if (!hook) return undefined;
    const body = await this.redis.hgetBuffer(key, "body");
    return { ...hook, ...(body ? { body } : {}) };
  }
}

function parse(r: (string | null)[]): QuarantinedHook | undefined {
  const [id, source, tenant, receivedAt, reason, size, hdr] = r;
  if (!id || !source) return undefined;
  return {
    id,
    source,
    tenant: tenant ?? undefined,
    received_at: Number(receivedAt ?? 0),
    reason: reason ?? "",
    size: Number(size ?? 0),
    headers: hdr ? (JSON.parse(hdr) as Record<string, string>) : {},
  };
}

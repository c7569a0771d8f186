// Every Redis key Switchyard writes, in one place. All keys share one hash tag (`{prefix}`), the same one
// BullMQ's queues use, so multi-key scripts and MULTI stay on one slot of a Redis Cluster.

/** Key builder for one deployment prefix (`redis.prefix`). */
export class Keys {
  /** The hash-tagged base, also BullMQ's `prefix` option. */
  readonly base: string;

  constructor(prefix: string) {
    this.base = `{${prefix}}`;
  }

  /** Hash: one hook record (metadata, raw body, per-sink delivery state). */
  hook(id: string): string {
    return `${this.base}:hook:${id}`;
  }

  /** String: dedup key → first hook id, with the source's dedup TTL. */
  dedup(tenant: string | undefined, source: string, dedupKey: string): string {
    return `${this.base}:dedup:${tenant ?? "-"}:${source}:${dedupKey}`;
  }

  /** Sorted set: hooks persisted but not yet confirmed enqueued, scored by received_at (recovery scans it). */
  get pendingEnqueue(): string {
    return `${this.base}:pending-enqueue`;
  }

  /** String: the stale-recovery tick lock, so two ticks never run at once cluster-wide. */
  get recoveryLock(): string {
    return `${this.base}:recovery:lock`;
  }

  /** Sorted set: every dead-lettered delivery (job id), scored by the time it died. */
  get dlqAll(): string {
    return `${this.base}:dlq:all`;
  }

  /** Sorted set: dead deliveries sharing one filter value (`source`, `sink`, `class`, `tenant`). */
  dlqBy(field: "source" | "sink" | "class" | "tenant", value: string): string {
    return `${this.base}:dlq:by-${field}:${value}`;
  }

  /** Hash: one dead-letter entry's metadata (never a body). */
  dlqEntry(jobId: string): string {
    return `${this.base}:dlq:entry:${jobId}`;
  }

  /** Hash: one replay job's filter, progress and state. */
  replay(id: string): string {
    return `${this.base}:replay:${id}`;
  }

  // Outbound endpoints
  // Every endpoint key carries its own hash tag, `{<prefix>:ep}`, so the endpoint scripts (record plus its
  // list and subscription indexes) stay on one Redis Cluster slot, apart from the busy inbound slot.

  /** The raw `redis.prefix`, recovered from the hash-tagged base so this block leaves the constructor alone. */
  get prefix(): string {
    return this.base.slice(1, -1);
  }

  /** The hash-tagged base shared by every endpoint key. */
  get endpointBase(): string {
    return `{${this.prefix}:ep}`;
  }

  /** Hash: one endpoint (config, secrets, version, health). */
  endpoint(id: string): string {
    return `${this.endpointBase}:endpoint:${id}`;
  }

  /** Sorted set, all scores 0: every endpoint id, walked in id (= creation) order by ZRANGE BYLEX. */
  get endpointsAll(): string {
    return `${this.endpointBase}:list:all`;
  }

  /** Sorted set, all scores 0: the endpoint ids of one tenant. */
  endpointsOfTenant(tenant: string): string {
    return `${this.endpointBase}:list:t.${tenant}`;
  }

  /**
   * Set: the enabled endpoints of one tenant (undefined: no tenant) subscribed with `pattern` — an exact
   * type, `prefix.*`, or `*`. A tenant is written `t.<name>` and no tenant `-`, so neither can pose as
   * the other.
   */
  endpointSubscribers(tenant: string | undefined, pattern: string): string {
    const scope = tenant === undefined ? "-" : `t.${tenant}`;
    const which =
      pattern === "*" ? "all" : pattern.endsWith(".*") ? `prefix:${pattern.slice(0, -2)}` : `type:${pattern}`;
    return `${this.endpointBase}:sub:${scope}:${which}`;
  }
}

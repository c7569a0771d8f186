// Every Redis key Switchyard writes, in one place: the cluster key plan. Keys that one script changes
// together share a hash tag, so every multi-key script stays in one Redis Cluster slot:
//   - per bucket `{<prefix>:<bucket>}`: hook records, dedup keys, event records, delivery rows, the
//     recovery watch set and the DLQ indexes of the rows in that bucket (a hook's bucket comes from its
//     dedup identity and is the last character of its id; its rows live beside it);
//   - per BullMQ queue `{<prefix>:<queue>}`: the queue's own keys (and a replay's record, which its
//     job's lock fences); on a cluster whose delivery queues are aligned with buckets, a bucket's
//     queues (`<queue>.b<bucket>`) are in that bucket's tag instead, beside its rows.
import { BUCKETS, type DeliveryId, type HookId, bucketFor, bucketOf } from "../domain/ids.ts";

/** The DLQ filter indexes a dead row is listed in, by name (`all`, `source:x`, `sink:x`, …). */
export type DlqIndexName =
  | "all"
  | `source:${string}`
  | `sink:${string}`
  | `endpoint:${string}`
  | `class:${string}`
  | `tenant:${string}`;

/** A queue of one storage bucket (bucketQueueName): `<queue>.b<bucket>`. */
const BUCKET_QUEUE = /\.b(\d{1,2})$/;

/** Key builder for one deployment prefix (`redis.prefix`). */
export class Keys {
  readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  /** The hash tag of one storage bucket. */
  bucketTag(bucket: number): string {
    return `{${this.prefix}:${bucket}}`;
  }

  /** Every bucket number, for readers that merge per-bucket indexes. */
  get buckets(): readonly number[] {
    return Array.from({ length: BUCKETS }, (_, i) => i);
  }

  /** Hash: one hook record (metadata, headers, raw body, count of live deliveries). */
  hook(id: HookId): string {
    return `${this.bucketTag(bucketOf(id))}:hook:${id}`;
  }

  /** String: dedup identity → first hook id, with the source's dedup TTL; in its hook's bucket. */
  dedup(identity: string): string {
    return `${this.bucketTag(bucketFor(identity))}:dedup:${identity}`;
  }

  /**
   * Hash: one published event (type, tenant, payload, count of live deliveries), by its ref: its id
   * scoped by tenant (`<tenant>/<id>`, or the bare id for none; see eventRef), in the ref's bucket.
   */
  event(ref: string): string {
    return `${this.bucketTag(bucketFor(ref))}:event:${ref}`;
  }

  /** Hash: one delivery row. */
  delivery(id: DeliveryId): string {
    return `${this.bucketTag(bucketOf(id))}:dl:${id}`;
  }

  /**
   * Sorted set: the live rows of a bucket, scored by when recovery should look at one if nothing else
   * has touched it (a pending row's staleness, a sending row's lease expiry, a retry's due time).
   */
  watch(bucket: number): string {
    return `${this.bucketTag(bucket)}:watch`;
  }

  /**
   * Sorted set: the events of a bucket whose fanout of several pages is unfinished (its publisher may
   * have died between pages), scored by when recovery may finish it; empty (so gone) once all finish.
   */
  fanouts(bucket: number): string {
    return `${this.bucketTag(bucket)}:fanouts`;
  }

  /** Sorted set: dead rows of a bucket listed under one filter value, scored by dead_at. */
  dlqIndex(bucket: number, name: DlqIndexName): string {
    return `${this.bucketTag(bucket)}:dlq:${name}`;
  }

  /** Set: the DLQ index keys a bucket has, so the trim walks them without a SCAN. */
  dlqIndexes(bucket: number): string {
    return `${this.bucketTag(bucket)}:dlq:indexes`;
  }

  /**
   * BullMQ `prefix` of one queue: its own hash tag, or for a queue of one bucket (`<queue>.b<bucket>`,
   * bucketQueueName) that bucket's, so its jobs share a slot with the bucket's rows.
   */
  queuePrefix(queue: string): string {
    const bucket = BUCKET_QUEUE.exec(queue)?.[1];
    return bucket === undefined ? `{${this.prefix}:${queue}}` : this.bucketTag(Number(bucket));
  }

  /** Hash: one replay job's filter, progress and state; beside its job, whose lock fences it. */
  replay(id: string): string {
    return `${this.replayRecordPrefix}${id}`;
  }

  /** The prefix of every replay record's key (`replayRecordPrefix + id` is `replay(id)`). */
  get replayRecordPrefix(): string {
    return `${this.queuePrefix("replays")}:replay:`;
  }

  /**
   * Set: the ids of one tenant's live (running or paused) replays, against its cap; `-` for replays of
   * the untenanted admin token. Pruned of ended replays whenever the tenant creates one.
   */
  replaysLive(tenant: string | undefined): string {
    return `${this.queuePrefix("replays")}:live:${tenant === undefined ? "-" : `t.${tenant}`}`;
  }

  /** Sorted set, all scores 0: every replay id with a record, walked newest first by ZREVRANGEBYLEX. */
  get replayIndex(): string {
    return `${this.queuePrefix("replays")}:replay-index`;
  }

  /**
   * One outbound endpoint's shared delivery limits (`rate`: GCRA slot time; `inflight`: holders of its
   * concurrency slots; `breaker`: its circuit breaker): every worker process reads the same ones. Each
   * endpoint has its own hash tag, so busy endpoints spread over a cluster.
   */
  endpointGate(id: string, kind: "rate" | "inflight" | "breaker"): string {
    return `{${this.prefix}:ep:${id}}:${kind}`;
  }

  /** Every key of one endpoint's shared limits (the in-flight slots' waiters included), for its deletion. */
  endpointGates(id: string): string[] {
    const inflight = this.endpointGate(id, "inflight");
    return [this.endpointGate(id, "breaker"), this.endpointGate(id, "rate"), inflight, `${inflight}:waiting`];
  }

  /**
   * Sorted set: one endpoint's deliveries (ids scored by creation time), for listing them newest first;
   * trimmed by age and count on every write, and removed with the endpoint (endpointOwned).
   */
  endpointDeliveries(id: string): string {
    return `{${this.prefix}:ep:${id}}:deliveries`;
  }

  /**
   * Hash: one endpoint's attempt counts and duration histogram over one minute (`m`, kept an hour) or one
   * hour (`h`, kept a day); `at` is the minute or hour since the epoch. Expiring; see endpoint-stats.ts.
   */
  endpointStats(id: string, span: "m" | "h", at: number): string {
    return `{${this.prefix}:ep:${id}}:stats:${span}:${at}`;
  }

  /** One sink's circuit breaker (a hash), shared by every worker process; each sink has its own tag. */
  sinkGate(sink: string, kind: "breaker"): string {
    return `{${this.prefix}:sink:${sink}}:${kind}`;
  }

  /** Pub/sub channel on which the sinks' shared breakers announce state changes. */
  get sinkBreakerChannel(): string {
    return `${this.prefix}:sink-breaker-changes`;
  }

  /** Pub/sub channel on which the endpoints' shared breakers announce state changes. */
  get breakerChannel(): string {
    return `${this.prefix}:breaker-changes`;
  }

  /** Sorted set: quarantined hooks by received_at (one tag: the store is small and capped). */
  get quarantineIndex(): string {
    return `{${this.prefix}:quarantine}:index`;
  }

  /** String: bytes the quarantine holds, against its cap. */
  get quarantineBytes(): string {
    return `{${this.prefix}:quarantine}:bytes`;
  }

  /** Hash: the bytes each quarantined hook counts against the cap, by id. */
  get quarantineSizes(): string {
    return `{${this.prefix}:quarantine}:sizes`;
  }

  /** Hash: one quarantined hook. */
  quarantined(id: string): string {
    return `{${this.prefix}:quarantine}:q:${id}`;
  }

  /** String: the recovery tick lock, so two ticks never run at once cluster-wide. */
  get recoveryLock(): string {
    return `${this.queuePrefix("maintenance")}:recovery-lock`;
  }

  /** String: the latest cluster-wide sample called `name` (e.g. queue depths), written by one process. */
  sample(name: string): string {
    return `{${this.prefix}:sample}:${name}`;
  }

  /** String: the lock whose holder takes sample `name` this interval (it lapses with the interval). */
  sampleTurn(name: string): string {
    return `{${this.prefix}:sample}:${name}:turn`;
  }

  // --- Operational events (src/domain/operational-events.ts) ---
  // A fact is written to an outbox in the hash tag of the script that decides it, so the fact and its
  // outbox entry are one atomic write on a Redis Cluster too; the drainer publishes and removes entries.

  /** Hash: the outbox of one hash tag (`{<prefix>:…}` as the deciding script's keys carry it): event id → OutboxEntry JSON. */
  opsOutbox(tag: string): string {
    return `${tag}:ops`;
  }

  /** The hash tag of the drainer's own keys (and of the facts it decides itself, such as DLQ thresholds). */
  get opsTag(): string {
    return `{${this.prefix}:ops}`;
  }

  /** Set: outbox keys that may hold entries, so the drainer reads only those (plus its periodic sweep). */
  get opsDirty(): string {
    return `${this.opsTag}:dirty`;
  }

  /** String counter: per-delivery facts of one target (`endpoint:<id>`, `sink:<name>`) in one minute. */
  opsBudget(target: string, minute: number): string {
    return `${this.opsTag}:budget:${target}:${minute}`;
  }

  /**
   * String (expiring): a DLQ index's `switchyard.dlq.threshold` fact was recorded within the last
   * `operational.dlq_threshold_interval_s`; no other is recorded while it lives.
   */
  opsDlqThreshold(index: DlqIndexName): string {
    return `${this.opsTag}:dlq-threshold:${index}`;
  }

  /** String: the drainer's decision on one fact (`send` or `skip`), so concurrent drainers agree. */
  opsDecision(eventId: string): string {
    return `${this.opsTag}:decided:${eventId}`;
  }

  // --- Data layout ---

  /** String: the data layout version this prefix holds (src/store/layout/); checked at every boot. */
  get layoutVersion(): string {
    return `{${this.prefix}:layout}:version`;
  }

  /** String: the lock of the one process migrating the layout (it lapses unless its holder renews it). */
  get layoutLock(): string {
    return `{${this.prefix}:layout}:migrate-lock`;
  }

  /** Hash: the steps of migration `from`→`to` already done (step → when), so a rerun resumes. */
  layoutSteps(from: number, to: number): string {
    return `{${this.prefix}:layout}:steps:${from}-${to}`;
  }

  // --- Claim URLs ---

  /** String: the deployment's generated claim-URL signing key (when `http.claim_signing_key` is unset). */
  get claimSigningKey(): string {
    return `{${this.prefix}:claim}:signing-key`;
  }

  // Tenant portal: a link's grant and a session, each by the sha256 of its token (the token itself is
  // never stored), each expiring with the access it grants.

  /** String: the grant of one unused portal link (JSON); taken (deleted) by its first use. */
  portalLink(digest: string): string {
    return `{${this.prefix}:portal}:link:${digest}`;
  }

  /** String: one portal session's grant (JSON), expiring with the session. */
  portalSession(digest: string): string {
    return `{${this.prefix}:portal}:session:${digest}`;
  }

  // Outbound endpoints
  // Every endpoint key carries its own hash tag, `{<prefix>:ep}`, so the endpoint scripts (record plus its
  // list and subscription indexes) stay on one Redis Cluster slot, apart from the busy inbound slot.

  /** The hash-tagged base shared by every endpoint key. */
  get endpointBase(): string {
    return `{${this.prefix}:ep}`;
  }

  /** Hash: one endpoint (config, secrets, version, health). */
  endpoint(id: string): string {
    return `${this.endpointBase}:endpoint:${id}`;
  }

  /** Hash: the event types declared by API (name → JSON), the catalog's half beside config's. */
  get eventTypes(): string {
    return `${this.endpointBase}:event-types`;
  }

  /** Sorted set, all scores 0: every endpoint id, walked in id (= creation) order by ZRANGE BYLEX. */
  get endpointsAll(): string {
    return `${this.endpointBase}:list:all`;
  }

  /** Sorted set, all scores 0: the endpoint ids of no tenant (counted against the cap per tenant). */
  get endpointsWithoutTenant(): string {
    return `${this.endpointBase}:list:-`;
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

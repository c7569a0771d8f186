// Published events in Redis, written together with their delivery rows (one per matching endpoint),
// in the bucket of the event's ref (its id scoped by tenant, see eventRef): the ledger of record for
// outbound fanout. The payload is stored once, in the event; every row of the event points at it.
// Rows are created as ingest creates them (row-write.ts): on a single Redis with the verified BullMQ
// their jobs are written in the same script call, so a page of a fanout is one command.
import { targetKey } from "../domain/delivery.ts";
import { RowParentStore } from "./row-write.ts";
import { type DeliveryId, type EndpointId, bucketFor, deliveryIdFor } from "../domain/ids.ts";
import type { DeliveryRow } from "../domain/delivery.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { Keys } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";
import type { JobLayout } from "./row-write.ts";
import { EndpointDeliveryIndex } from "./endpoint-delivery-index.ts";
import { LuaScript } from "./lua-script.ts";
import { eventIdOf, eventRef } from "../domain/event.ts";

const publishScript = new LuaScript("publish-event-n.lua", "n", { oneSlotOnClusterOnly: true });
const forgetFanoutScript = new LuaScript("forget-fanout-2.lua", 2);

/** An event as published. */
export interface EventRecord {
  readonly id: string;
  readonly type: string;
  readonly tenant: string | undefined;
  /** Milliseconds since the epoch when it was first published. */
  readonly createdAt: number;
  /** The JSON payload's bytes, exactly as delivered. */
  readonly payload: Buffer;
  /** W3C traceparent of the publishing request's span (tracing on only): its attempts' parent. */
  readonly traceparent?: string | undefined;
}

/** The fields of an event a delivery attempt reads, in the order `toEventRecord` takes them. */
export const EVENT_ATTEMPT_FIELDS = ["meta", "payload"] as const;

interface StoredMeta {
  readonly type: string;
  readonly tenant?: string | undefined;
  readonly created_at: number;
  /** The publishing request's traceparent; absent (no bytes) with tracing off. */
  readonly tp?: string | undefined;
}

export type RowStatus = "created" | "duplicate" | "reclaimed";

/**
 * Which page of a fanout a publish call writes: the first of several marks the fanout unfinished with
 * every endpoint it goes to (so recovery can finish it if the publisher dies), a middle one keeps the
 * mark fresh, the last one (or the only one) clears it.
 */
export type FanoutPage =
  | { readonly kind: "first"; readonly endpoints: readonly EndpointId[] }
  | { readonly kind: "more" }
  | { readonly kind: "last" };

/** A fanout its publisher did not finish: the event, and every endpoint it was being written to. */
export interface UnfinishedFanout {
  readonly record: EventRecord;
  readonly endpoints: readonly EndpointId[];
}
/** `jobsAdded`: the new (and taken back) rows' jobs were written by the same call. */
export type PublishOutcome =
  | { readonly kind: "conflict" }
  | { readonly kind: "written"; readonly rows: readonly RowStatus[]; readonly jobsAdded: boolean };

/** The delivery row of the event named `ref` (see eventRef) to endpoint `endpointId`. */
export function endpointDeliveryId(ref: string, endpointId: EndpointId): DeliveryId {
  return deliveryIdFor(ref, targetKey({ kind: "endpoint", id: endpointId }), bucketFor(ref));
}

/** The event stored under `ref` (see eventRef), from its meta and payload fields. */
export function toEventRecord(
  ref: string,
  meta: Buffer | undefined,
  payload: Buffer | undefined,
): EventRecord | undefined {
  if (meta === undefined || payload === undefined) return undefined;
  const m = JSON.parse(meta.toString("utf8")) as StoredMeta;
  const id = eventIdOf(ref);
  return { id, type: m.type, tenant: m.tenant, createdAt: m.created_at, payload, traceparent: m.tp };
}

/** With a job layout (see RowParentStore), each page's jobs are written by its publish call (`jobsAdded`). */
export class EventStore extends RowParentStore {
  /** Each endpoint's deliveries, newest first (written with every fanout page). */
  readonly endpointIndex: EndpointDeliveryIndex;

  constructor(redis: RedisClient, keys: Keys, deliveries: DeliveryStore, jobs?: JobLayout) {
    super(redis, keys, deliveries, jobs);
    this.endpointIndex = new EndpointDeliveryIndex(redis, keys);
  }

  /**
   * Write the event (if new) and a pending row per endpoint (if new), in one atomic step: one page of a
   * fanout (the caller pages a long list of endpoints). `now`: when the page is written (new rows'
   * creation time; the event's own by default).
   */
  async publish(
    event: EventRecord,
    endpoints: readonly EndpointId[],
    opts: { staleAfterMs: number; retentionS: number; page: FanoutPage; now?: number; ref?: string },
  ): Promise<PublishOutcome> {
    const now = opts.now ?? event.createdAt;
    const ref = opts.ref ?? eventRef(event.tenant, event.id);
    const bucket = bucketFor(ref);
    const meta: StoredMeta = {
      type: event.type,
      tenant: event.tenant,
      created_at: event.createdAt,
      tp: event.traceparent,
    };
    const keys = [this.keys.event(ref), this.keys.watch(bucket), this.keys.fanouts(bucket)];
    const args: (string | number | Buffer)[] = [
      ref,
      event.type,
      event.tenant ?? "",
      JSON.stringify(meta),
      event.payload,
      now,
      now + opts.staleAfterMs,
      opts.retentionS,
      opts.page.kind,
      opts.page.kind === "first" ? JSON.stringify(opts.page.endpoints) : "",
      this.writeMode,
    ];
    const entries = endpoints.map((ep) => ({ endpoint: ep, id: endpointDeliveryId(ref, ep) }));
    // Each row is listed in its endpoint's index by the same script where the index can share its slot
    // (a single Redis); otherwise by a call of its own, sent first, so a row is never missing from it.
    const inScript = this.endpointIndex.listedInScript(entries, now, opts.retentionS);
    args.push(...(inScript?.args ?? [0, 0, 0]));
    for (const { endpoint, id } of entries)
      this.pushRow(keys, args, { id, parentId: ref, target: { kind: "endpoint", id: endpoint } });
    if (inScript) keys.push(...inScript.keys);
    const listed = inScript ? undefined : this.endpointIndex.add(entries, now, opts.retentionS);
    const written = publishScript.run(this.redis, keys, args);
    const reply = (await Promise.all([written, listed]))[0] as string[];
    if (reply[0] === "conflict") return { kind: "conflict" };
    return { kind: "written", rows: reply as RowStatus[], jobsAdded: this.jobs !== undefined };
  }

  /** Refs of a bucket's unfinished fanouts that recovery may finish by `now`, oldest first. */
  async unfinishedFanouts(bucket: number, now: number, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.fanouts(bucket), "-inf", now, "LIMIT", 0, limit);
  }

  /** The unfinished fanout of event `ref`, or undefined when it is finished (or the event is gone). */
  async unfinishedFanout(ref: string): Promise<UnfinishedFanout | undefined> {
    const [meta, payload, fo] = await this.redis.hmgetBuffer(
      this.keys.event(ref),
      ...EVENT_ATTEMPT_FIELDS,
      "fo",
    );
    const record = toEventRecord(ref, meta ?? undefined, payload ?? undefined);
    if (!record || !fo) return undefined;
    return { record, endpoints: JSON.parse(fo.toString("utf8")) as EndpointId[] };
  }

  /** Take `ref` off the unfinished fanouts if nothing is left to finish (see forget-fanout-2.lua). */
  async forgetFanout(ref: string): Promise<boolean> {
    const keys = [this.keys.event(ref), this.keys.fanouts(bucketFor(ref))];
    return (await forgetFanoutScript.run(this.redis, keys, [ref])) === 1;
  }

  /**
   * The ref event `id` of `tenant` is stored under: `<tenant>/<id>`, or the bare id of an event of that
   * tenant written by release 0.1.0 (layout 1), which named tenant events by their id alone. A
   * re-publish of such an event stays a duplicate of it, and its rows keep their ids.
   */
  async resolveRef(tenant: string | undefined, id: string): Promise<string> {
    const ref = eventRef(tenant, id);
    if (tenant === undefined || (await this.redis.exists(this.keys.event(ref))) === 1) return ref;
    const legacy = await this.redis.hget(this.keys.event(id), "tn");
    return legacy === tenant ? id : ref;
  }

  /** The event `id` of `tenant` (undefined: a tenantless event). */
  async get(tenant: string | undefined, id: string): Promise<EventRecord | undefined> {
    const ref = await this.resolveRef(tenant, id);
    const [meta, payload] = await this.redis.hmgetBuffer(this.keys.event(ref), ...EVENT_ATTEMPT_FIELDS);
    return toEventRecord(ref, meta ?? undefined, payload ?? undefined);
  }

  /** Every delivery row of an event (one per endpoint it was fanned out to). */
  async rows(tenant: string | undefined, id: string): Promise<DeliveryRow[]> {
    const fields = await this.redis.hkeys(this.keys.event(await this.resolveRef(tenant, id)));
    const ids = fields.filter((f) => f.startsWith("r:")).map((f) => f.slice(2) as DeliveryId);
    return (await this.deliveries.getMany(ids)).filter((r): r is DeliveryRow => r !== undefined);
  }
}

// Outbound endpoints in Redis: one hash per endpoint, list indexes for paging, and subscription sets by
// (tenant, pattern) so fanning out an event reads the few sets its type can match (exact type, each
// `prefix.*`, `*`) instead of scanning every endpoint. Every write changes the record and its indexes in
// one Lua script, guarded by the record's revision, so concurrent writers never leave an index wrong.
//
// Tenants are isolated: an endpoint with a tenant receives only that tenant's events, and one without a
// tenant receives only events published without one (never a tenant's).
//
// Each write records its operational facts (switchyard.endpoint.*, domain/endpoint-facts.ts) in the same
// script, in the outbox of the endpoints' hash tag, so a fact exists exactly when its change does.
import type { RedisClient } from "./redis-client.ts";
import {
  type Endpoint,
  type EndpointPatch,
  MANUAL_DISABLE_REASON,
  SECRET_MIN_BYTES,
  changeEndpoint,
  normalizeHeaders,
  patchEndpoint,
  rotatedSecrets,
  uniquePatterns,
} from "../domain/endpoint.ts";
import { isEventType, matchesPattern, patternsOf } from "../domain/event.ts";
import { endpointFacts } from "../domain/endpoint-facts.ts";
import { newId } from "../domain/ids.ts";
import type { DisableCause } from "../domain/operational-payloads.ts";
import { DEFAULT_PAYLOAD_FORMAT } from "../domain/outbound-body.ts";
import { generateSecret } from "../domain/signing.ts";
import {
  type StoredEndpoint,
  endpointFields,
  fieldChanges,
  listKeys,
  parseEndpointRecord,
  subscriptionKeys,
} from "./endpoint-record.ts";
import type { Keys } from "./keys.ts";
import { endpointStatsKeys } from "./endpoint-stats.ts";
import { LuaScript } from "./lua-script.ts";
import type { OpsOutbox } from "./ops-outbox.ts";
import {
  type EndpointListQuery,
  type EndpointPage,
  EndpointLimitReached,
  type NewEndpoint,
  assertValid,
  endpointFactArgs,
} from "./endpoint-writes.ts";

export { EndpointLimitReached };
export type { EndpointListQuery, EndpointPage, NewEndpoint };

// On a single Redis these also mark the outbox in the drainer's dirty set (another slot; see OpsOutbox).
const writesFacts = { oneSlotOnClusterOnly: true } as const;
const createScript = new LuaScript("create-endpoint-n.lua", "n", writesFacts);
const updateScript = new LuaScript("update-endpoint-n.lua", "n", writesFacts);
const deleteScript = new LuaScript("delete-endpoint-n.lua", "n", writesFacts);
const markFailingScript = new LuaScript("mark-endpoint-failing-1.lua", 1);

/** Attempts of a read-modify-write before giving up on a record that keeps changing under us. */
const MAX_ATTEMPTS = 20;

/** Default of outbound.max_endpoints_per_tenant, for stores made outside a gateway. */
const DEFAULT_MAX_PER_TENANT = 1000;

export class EndpointStore {
  /** `facts`: where the endpoint scripts record operational facts; none are recorded without it. */
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    private readonly maxPerTenant = DEFAULT_MAX_PER_TENANT,
    private readonly facts?: OpsOutbox,
  ) {}

  /** Store a new endpoint (enabled unless `disabled`) and index it. The answer holds its secret. */
  async create(input: NewEndpoint, now = Date.now()): Promise<Endpoint> {
    const disabled = input.disabled === true;
    const endpoint: Endpoint = {
      id: newId("ep", now),
      url: input.url,
      event_types: uniquePatterns(input.event_types),
      tenant: input.tenant,
      headers: normalizeHeaders(input.headers ?? {}),
      rate_limit_per_s: input.rate_limit_per_s,
      payload_format: input.payload_format ?? DEFAULT_PAYLOAD_FORMAT,
      disabled,
      disabled_reason: disabled ? MANUAL_DISABLE_REASON : undefined,
      disabled_at: disabled ? now : undefined,
      description: input.description,
      version: 1,
      created_at: now,
      updated_at: now,
      failing_since: undefined,
      secret: input.secret ?? generateSecret(SECRET_MIN_BYTES),
      previous_secrets: [],
    };
    assertValid(endpoint);
    const lists = listKeys(this.keys, endpoint.tenant);
    const fields = Object.entries({ ...endpointFields(endpoint), rev: "1" }).flat();
    const facts = endpointFactArgs(this.keys, this.facts, endpointFacts(undefined, endpoint, 1, now));
    const created = await createScript.run(
      this.redis,
      [this.keys.endpoint(endpoint.id), ...lists, ...subscriptionKeys(this.keys, endpoint), ...facts.keys],
      [...facts.args, endpoint.id, lists.length, this.maxPerTenant, ...fields],
    );
    if (created === -1) throw new EndpointLimitReached(this.maxPerTenant);
    if (created !== 1) throw new Error(`endpoint id ${endpoint.id} is already taken`);
    await facts.written();
    return endpoint;
  }

  /** The endpoint, secrets included, or undefined. */
  async get(id: string): Promise<Endpoint | undefined> {
    return (await this.read(id))?.endpoint;
  }

  /** Endpoints by id in one round trip, in the order asked; missing ones are left out. */
  async getMany(ids: readonly string[]): Promise<Endpoint[]> {
    if (ids.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hgetall(this.keys.endpoint(id));
    const out: Endpoint[] = [];
    for (const [err, raw] of (await pipe.exec()) ?? []) {
      if (err) throw err;
      const stored = parseEndpointRecord(raw as Record<string, string>);
      if (stored) out.push(stored.endpoint);
    }
    return out;
  }

  /** Apply `patch`; undefined when there is no such endpoint. */
  async update(id: string, patch: EndpointPatch, now = Date.now()): Promise<Endpoint | undefined> {
    return this.change(id, (e) => patchEndpoint(e, patch, now), now, "operator");
  }

  /**
   * Delete the endpoint and its indexes, then its shared limits (breaker, rate, in-flight slots), its
   * delivery list and its health buckets: each has the endpoint's own hash tag, so they go in their own
   * command, after the record (an attempt still in flight finds no endpoint and ends its delivery).
   * False when there was none.
   */
  async delete(id: string, now = Date.now()): Promise<boolean> {
    const deleted = await this.deleteRecord(id, now);
    // One slot (the endpoint's own tag): one command.
    if (deleted)
      await this.redis.unlink(
        ...this.keys.endpointGates(id),
        this.keys.endpointDeliveries(id),
        ...endpointStatsKeys(this.keys, id, now),
      );
    return deleted;
  }

  private async deleteRecord(id: string, now: number): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.read(id);
      if (!stored) return false;
      const e = stored.endpoint;
      const lists = listKeys(this.keys, e.tenant);
      const facts = endpointFactArgs(
        this.keys,
        this.facts,
        endpointFacts(e, undefined, Number(stored.rev), now),
      );
      const reply = await deleteScript.run(
        this.redis,
        [this.keys.endpoint(id), ...lists, ...subscriptionKeys(this.keys, e), ...facts.keys],
        [...facts.args, id, stored.rev, lists.length],
      );
      if (reply === 1) await facts.written();
      if (reply !== -1) return reply === 1;
    }
    throw new Error(`endpoint ${id} kept changing; delete not done`);
  }

  /** A page of endpoints in id order, from the tenant's list or the list of all. Costs O(page). */
  async list(q: EndpointListQuery): Promise<EndpointPage> {
    const key = q.tenant === undefined ? this.keys.endpointsAll : this.keys.endpointsOfTenant(q.tenant);
    const from = q.cursor === undefined ? "-" : `(${q.cursor}`;
    const ids = await this.redis.zrangebylex(key, from, "+", "LIMIT", 0, q.limit + 1);
    const page = ids.slice(0, q.limit);
    const endpoints = await this.getMany(page);
    return { endpoints, next: ids.length > q.limit ? page[page.length - 1] : undefined };
  }

  /**
   * Make `next` (default: a fresh secret) the current secret; the old one keeps signing for 24 h (see
   * rotatedSecrets). Returns the endpoint with its new secret, or undefined when there is no such endpoint.
   * Throws a RangeError for a malformed secret or the current one.
   */
  async rotateSecret(id: string, next?: string, now = Date.now()): Promise<Endpoint | undefined> {
    const secret = next ?? generateSecret(SECRET_MIN_BYTES);
    return this.change(
      id,
      (e) => {
        if (secret === e.secret) throw new RangeError("the new secret is the current one");
        return changeEndpoint(e, rotatedSecrets(e, secret, now), now);
      },
      now,
    );
  }

  /**
   * The enabled endpoints of `tenant` (undefined: endpoints without a tenant) subscribed to `eventType`,
   * in id order. Reads the exact, prefix and `*` subscription sets of the type, then loads the endpoints
   * in one pipeline; each is checked again, so a record changed between the two reads is not sent to.
   */
  async match(tenant: string | undefined, eventType: string): Promise<Endpoint[]> {
    if (!isEventType(eventType)) return [];
    const sets = patternsOf(eventType).map((p) => this.keys.endpointSubscribers(tenant, p));
    const ids = (await this.redis.sunion(...sets)).sort();
    return (await this.getMany(ids)).filter(
      (e) => !e.disabled && e.tenant === tenant && e.event_types.some((p) => matchesPattern(p, eventType)),
    );
  }

  /**
   * Disable the endpoint if its version is still `version` (and it is enabled): the compare-and-set a
   * worker uses after a 410 (`cause` gone) or after failing too long (`failing`), so an endpoint that was
   * fixed meanwhile stays enabled. True if it disabled.
   */
  async disableIfVersion(
    id: string,
    version: number,
    reason: string,
    now = Date.now(),
    cause: DisableCause = "gone",
  ): Promise<boolean> {
    let disabled = false;
    await this.change(
      id,
      (e) => {
        disabled = false;
        if (e.version !== version || e.disabled) return e;
        disabled = true;
        return changeEndpoint(e, { disabled: true, disabled_reason: reason, disabled_at: now }, now);
      },
      now,
      cause,
    );
    return disabled;
  }

  /** Note that deliveries are failing: sets failing_since unless set. Returns it, or undefined if no endpoint. */
  async markFailing(id: string, now = Date.now()): Promise<number | undefined> {
    const since = await markFailingScript.run(this.redis, [this.keys.endpoint(id)], [now]);
    return since === null ? undefined : Number(since);
  }

  /** A delivery succeeded: clear failing_since. */
  async markHealthy(id: string): Promise<void> {
    await this.redis.hdel(this.keys.endpoint(id), "failing_since");
  }

  private async read(id: string): Promise<StoredEndpoint | undefined> {
    return parseEndpointRecord(await this.redis.hgetall(this.keys.endpoint(id)));
  }

  /**
   * Read, transform, write back with the indexes moved and the change's facts recorded, retrying when
   * another writer got there first. `transform` returning its argument writes nothing (and records no
   * fact: a change replayed after it landed finds nothing to change). `cause`: who disables, if it does.
   */
  private async change(
    id: string,
    transform: (e: Endpoint) => Endpoint,
    now: number,
    cause: DisableCause = "operator",
  ): Promise<Endpoint | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.read(id);
      if (!stored) return undefined;
      const before = stored.endpoint;
      const after = transform(before);
      if (after === before) return before;
      assertValid(after);
      const join = subscriptionKeys(this.keys, after);
      const leave = subscriptionKeys(this.keys, before).filter((k) => !join.includes(k));
      const { set, del } = fieldChanges(before, after);
      const pairs = Object.entries(set).flat();
      // The write makes revision rev + 1 (it lands only on revision rev): one event id per change.
      const facts = endpointFactArgs(
        this.keys,
        this.facts,
        endpointFacts(before, after, Number(stored.rev) + 1, now, cause),
      );
      const reply = await updateScript.run(
        this.redis,
        [this.keys.endpoint(id), ...leave, ...join, ...facts.keys],
        [...facts.args, id, stored.rev, leave.length, pairs.length / 2, ...pairs, ...del],
      );
      if (reply === 1) {
        await facts.written();
        return after;
      }
      if (reply === 0) return undefined;
    }
    throw new Error(`endpoint ${id} kept changing; update not done`);
  }
}

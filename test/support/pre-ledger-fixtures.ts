// Pre-ledger data (layout 0) written straight into Redis, for the migration tests that need many
// shapes quickly (the upgrade test runs the real pre-ledger release instead). The shapes are those of
// the release before the delivery ledger (commit 15edcf3~1), restated here, nothing imported from it:
//   {p}:hook:<id>            hash: meta JSON {source, tenant?, received_at, content_type?, sha256,
//                            dedup_key, idempotency_key, sinks}, hdr JSON, body, s:<sink> state JSON
//                            {state, attempts, first_attempt_at?, last_attempt_at?, next_attempt_at?,
//                            delivered_at?, last_error?, error_class?}; EXPIRE retention_s
//   {p}:dlq:entry:<id>-<sink> hash: id, hook_id, source, tenant?, sink, error_class, reason, attempts,
//                            first_attempt_at, last_attempt_at, dead_at; {p}:dlq:all and
//                            {p}:dlq:by-<field>:<value> zsets of the entry ids by dead_at
//   {p}:dedup:<tenant|->:<source>:<dedup key>   string: the hook id, EX dedup TTL
//   {p}:sink-<sink>:<job id>, :wait, :failed   BullMQ's job hash, wait list and failed set (job ids
//                            `<hook id>-<sink>`); a dead delivery's job is failed unless it was
//                            requeued (a replay, Bull Board's retry), which left its DLQ entry;
//                            :active holds the jobs taken (processedOn) when the release died
import type { Redis } from "ioredis";
import { newId } from "../../src/domain/ids.ts";

export interface PreLedgerSinkFixture {
  readonly sink: string;
  /** undefined: never attempted (pending, its job waiting). */
  readonly state?: "retrying" | "delivered" | "dead";
  readonly attempts?: number;
  /** A dead one whose job was moved back to waiting (by a replay) before the upgrade. */
  readonly requeued?: boolean;
  /** A retrying one whose DLQ entry outlived its replay (kept until a success, as that release did). */
  readonly staleDlqEntry?: boolean;
  /**
   * A dead one whose job was still in the active list when the release died, taken before the death
   * was recorded (killed between recording it and failing the job) or after it (a replay's attempt).
   */
  readonly active?: "before-death" | "after-death";
}

/** Write one pre-ledger hook of source `src` with the given per-sink states; returns its id. */
export async function writePreLedgerHook(
  redis: Redis,
  prefix: string,
  sinks: readonly PreLedgerSinkFixture[],
  now = Date.now(),
): Promise<string> {
  const base = `{${prefix}}`;
  const id = newId("hk", now - 10_000);
  const dedupKey = `k-${id}`;
  const meta = {
    source: "src",
    received_at: now - 10_000,
    content_type: "application/json",
    sha256: "0".repeat(64),
    dedup_key: dedupKey,
    idempotency_key: `-:src:${dedupKey}`,
    sinks: sinks.map((s) => s.sink),
  };
  const fields: Record<string, string> = {
    meta: JSON.stringify(meta),
    hdr: JSON.stringify({ "content-type": "application/json" }),
    body: `{"hook":"${id}"}`,
  };
  for (const s of sinks) {
    const attempts = s.attempts ?? 1;
    const times = { first_attempt_at: now - 9000, last_attempt_at: now - 5000 };
    if (s.state === "retrying")
      fields[`s:${s.sink}`] = JSON.stringify({
        state: "retrying",
        attempts,
        ...times,
        next_attempt_at: now + 1000,
        last_error: "HTTP 503",
        error_class: "transient",
      });
    if (s.state === "delivered")
      fields[`s:${s.sink}`] = JSON.stringify({
        state: "delivered",
        attempts,
        ...times,
        delivered_at: now - 5000,
      });
    if (s.state === "dead")
      fields[`s:${s.sink}`] = JSON.stringify({
        state: "dead",
        attempts,
        ...times,
        last_error: "HTTP 400",
        error_class: "permanent",
      });
    if (s.state === "dead" || s.staleDlqEntry) {
      const entry = `${id}-${s.sink}`;
      await redis.hset(`${base}:dlq:entry:${entry}`, {
        id: entry,
        hook_id: id,
        source: "src",
        sink: s.sink,
        error_class: "permanent",
        reason: "HTTP 400",
        attempts,
        first_attempt_at: times.first_attempt_at,
        last_attempt_at: times.last_attempt_at,
        dead_at: times.last_attempt_at,
      });
      await redis.expire(`${base}:dlq:entry:${entry}`, 3600);
      for (const index of ["all", "by-source:src", `by-sink:${s.sink}`, "by-class:permanent"])
        await redis.zadd(`${base}:dlq:${index}`, times.last_attempt_at, entry);
    }
    const job = `${id}-${s.sink}`;
    if (s.state !== "delivered")
      await redis.hset(`${base}:sink-${s.sink}:${job}`, {
        name: "deliver",
        data: JSON.stringify({ hookId: id, sink: s.sink }),
      });
    if (s.active !== undefined) {
      const deadAt = now - 5000;
      const taken = s.active === "before-death" ? deadAt - 200 : deadAt + 2000;
      await redis.hset(`${base}:sink-${s.sink}:${job}`, "processedOn", taken);
      await redis.lpush(`${base}:sink-${s.sink}:active`, job);
    } else if (s.state === "dead" && !s.requeued)
      await redis.zadd(`${base}:sink-${s.sink}:failed`, now - 5000, job);
    else if (s.state !== "delivered") await redis.lpush(`${base}:sink-${s.sink}:wait`, job);
  }
  await redis.hset(`${base}:hook:${id}`, fields);
  await redis.expire(`${base}:hook:${id}`, 3600);
  await redis.set(`${base}:dedup:-:src:${dedupKey}`, id, "EX", 600);
  return id;
}

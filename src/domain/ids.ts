// Prefixed, time-sortable ids: a log line or an API answer says what kind of thing an id names,
// and ids sort by creation time, which the DLQ and recovery scans rely on. Hook and delivery ids also
// carry their storage bucket in their last character, so any id leads straight to its Redis slot.
import { hash, randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

export type IdKind = "hk" | "rp" | "ep" | "ev" | "dl";
export type PrefixedId<K extends IdKind> = `${K}_${string}`;
export type HookId = PrefixedId<"hk">;
export type ReplayId = PrefixedId<"rp">;
export type EndpointId = PrefixedId<"ep">;
export type DeliveryId = PrefixedId<"dl">;

/**
 * How many storage buckets records, deliveries and their indexes are spread over. Each bucket is one
 * Redis Cluster hash tag; changing this number re-homes every key, so it is fixed per deployment.
 */
export const BUCKETS = 16;

function encodeTime(ms: number): string {
  let out = "";
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeBytes(bytes: Buffer, length: number, offset = 0): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[(bytes[offset + i] ?? 0) % 32];
  return out;
}

// Random bytes drawn a page at a time: one randomFillSync per 256 ids, not one call (and one Buffer) each.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomOffset(n: number): number {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += n;
  return at;
}

/**
 * A new id of the given kind: 10 chars of millisecond time, 16 of randomness (a ULID-shaped body).
 * With `bucket`, the last character names it (see `bucketOf`).
 */
export function newId<K extends IdKind>(kind: K, nowMs: number = Date.now(), bucket?: number): PrefixedId<K> {
  const random = encodeBytes(pool, bucket === undefined ? 16 : 15, randomOffset(16));
  return `${kind}_${encodeTime(nowMs)}${random}${bucket === undefined ? "" : bucketChar(bucket)}`;
}

function bucketChar(bucket: number): string {
  if (!Number.isInteger(bucket) || bucket < 0 || bucket >= BUCKETS) throw new Error(`bad bucket ${bucket}`);
  return ALPHABET[bucket] as string;
}

/** FNV-1a of a string: a cheap, stable spread of identities over a few buckets or partitions. */
export function fnv1a(identity: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < identity.length; i++) {
    h ^= identity.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The bucket of a string identity: equal identities always share a bucket. */
export function bucketFor(identity: string): number {
  return fnv1a(identity) % BUCKETS;
}

/** The bucket a hook or delivery id was made for (its last character). */
export function bucketOf(id: HookId | DeliveryId): number {
  const index = ALPHABET.indexOf(id.charAt(id.length - 1));
  return index < 0 ? 0 : index % BUCKETS;
}

/**
 * The id of the one delivery of `parent` (a hook or event) to `target`: deterministic, so every
 * writer (ingest, publish, recovery, replay) names the same row and the same job.
 */
export function deliveryIdFor(parent: string, target: string, bucket: number): DeliveryId {
  // One-shot: cheaper than a Hash object fed three times, and this runs for every row at ingest.
  const digest = hash("sha256", `${parent}\n${target}`, "buffer");
  return `dl_${encodeBytes(digest, 25)}${bucketChar(bucket)}`;
}

const ID_PATTERN = /^[a-z]{2,3}_[0-9a-hjkmnp-tv-z]{26}$/;

/** Is `value` a well-formed id of `kind`? Guards API input before it reaches a Redis key. */
export function isId<K extends IdKind>(kind: K, value: string): value is PrefixedId<K> {
  return value.startsWith(`${kind}_`) && ID_PATTERN.test(value);
}

/** Milliseconds since the epoch encoded in an id's first ten characters. */
export function idTime(id: string): number {
  const body = id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11);
  let t = 0;
  for (const ch of body) t = t * 32 + ALPHABET.indexOf(ch);
  return t;
}

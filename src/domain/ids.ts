// Prefixed, time-sortable ids: a log line or an API answer says what kind of thing an id names,
// and ids sort by creation time, which the DLQ and recovery scans rely on.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // Crockford base32, lower case

export type IdKind = "hk" | "rp" | "ep" | "ev" | "msg" | "dl";
export type PrefixedId<K extends IdKind> = `${K}_${string}`;
export type HookId = PrefixedId<"hk">;
export type ReplayId = PrefixedId<"rp">;

function encodeTime(ms: number): string {
  let out = "";
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 32];
  return out;
}

/** A new id of the given kind: 10 chars of millisecond time, 16 of randomness (a ULID-shaped body). */
export function newId<K extends IdKind>(kind: K, nowMs: number = Date.now()): PrefixedId<K> {
  return `${kind}_${encodeTime(nowMs)}${encodeRandom(randomBytes(16))}`;
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

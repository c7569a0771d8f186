// HMAC and constant-time comparison shared by every scheme, so the one place that touches signature bytes
// is small enough to audit: strict decoding, equal-length timingSafeEqual, no early string compares.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

export type HashName = "sha256" | "sha512" | "sha1";
export type SignatureEncoding = "hex" | "base64";

/** A secret string as an HMAC key object (UTF-8 bytes), built once per config rather than per request. */
export function utf8Key(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, "utf8"));
}

/** HMAC over the concatenation of `parts`, fed piecewise so a large body is never copied. */
export function hmac(hash: HashName, key: KeyObject, parts: readonly (Buffer | string)[]): Buffer {
  const mac = createHmac(hash, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Longest signature we bother decoding: a SHA-512 digest in hex is 128 characters. */
const MAX_ENCODED = 256;

/**
 * Decode a signature as sent by a provider, or `undefined` if it is not valid `encoding`. Strict, because
 * Buffer.from silently stops at the first bad character and would otherwise accept trailing garbage.
 */
export function decodeSignature(value: string, encoding: SignatureEncoding): Buffer | undefined {
  if (value.length === 0 || value.length > MAX_ENCODED) return undefined;
  const valid = encoding === "hex" ? HEX.test(value) : BASE64.test(value) && value.length % 4 !== 1;
  return valid ? Buffer.from(value, encoding) : undefined;
}

/** Constant-time equality; unequal lengths are a plain mismatch rather than the exception Node throws. */
export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Does any of `candidates` equal `expected`? Each comparison is constant-time. */
export function matchesAny(expected: Buffer, candidates: readonly Buffer[]): boolean {
  for (const candidate of candidates) {
    if (safeEqual(expected, candidate)) return true;
  }
  return false;
}

/**
 * Does any key sign `parts` to one of `candidates`? This is how rotation works: up to 8 live secrets, any
 * of which may have produced any of the signatures sent.
 */
export function anyKeyMatches(
  hash: HashName,
  keys: readonly KeyObject[],
  parts: readonly (Buffer | string)[],
  candidates: readonly Buffer[],
): boolean {
  if (candidates.length === 0) return false;
  for (const key of keys) {
    if (matchesAny(hmac(hash, key, parts), candidates)) return true;
  }
  return false;
}

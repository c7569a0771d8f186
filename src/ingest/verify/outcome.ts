// The result type every verifier returns. Failing is an ordinary value, not an exception, because bad
// signatures are routine on a public endpoint and the ingest path must never throw on attacker input.

/**
 * Outcome of one verification. `reason` is for logs: it never holds a secret or a signature value.
 * `messageId`: the message id the signature covered, for schemes that sign one (Standard Webhooks'
 * `webhook-id`, or `svix-id` when it came under the Svix names): dedup keys on it, never on a header
 * the signature did not cover.
 */
export type VerifyOutcome = { ok: true; messageId?: string } | { ok: false; reason: string };

/** The parts of an inbound request a verifier reads. Header names are lower-case. */
export interface VerifyRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** The shared success value (frozen: callers may hold it but not change it). */
export const OK: VerifyOutcome = Object.freeze({ ok: true });

/** A failure with a log-safe reason. */
export function fail(reason: string): VerifyOutcome {
  return { ok: false, reason };
}

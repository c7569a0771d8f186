// The claim check. A hook's body already lives once in its record, so checking a large body in means
// handing every sink and every retry the same reference to it; queue sinks send that reference
// instead of the bytes when the body is above their inline limit. The reference is a signed, expiring
// URL, so a consumer needs no admin token to follow it.
import type { ClaimRef, HookRecord } from "../domain/hook.ts";
import type { Sink } from "../sinks/sink.ts";

/** Adds an expiring signature for claim `id` to its `url` (ClaimSigner#signUrl). */
export type ClaimUrlSigner = (id: string, url: string) => string;

/** The smallest inline limit among `sinks`, or undefined if none of them uses the claim check. */
export function smallestInlineLimit(sinks: readonly Sink[]): number | undefined {
  let min: number | undefined;
  for (const sink of sinks) {
    if (sink.inlineMaxBytes !== undefined && (min === undefined || sink.inlineMaxBytes < min)) {
      min = sink.inlineMaxBytes;
    }
  }
  return min;
}

/**
 * The claim for `hook` when its body is above `limit`; `baseUrl` is where consumers reach this gateway.
 * With `sign`, the URL is signed; without, `withSignedClaims` signs it on its way into the sink.
 */
export function claimFor(
  hook: HookRecord,
  limit: number | undefined,
  baseUrl: string,
  sign?: ClaimUrlSigner,
): ClaimRef | undefined {
  if (limit === undefined || hook.body.length <= limit) return undefined;
  const url = `${baseUrl.replace(/\/$/, "")}/v1/claims/${hook.id}`;
  return { id: hook.id, url: sign ? sign(hook.id, url) : url, sha256: hook.sha256, size: hook.body.length };
}

/**
 * `sink`, with the claim URL of every delivery signed when it is attempted (so each attempt's URL is
 * valid for the full TTL). The dispatcher builds claims without a signer; this keeps the signing out
 * of its code path.
 */
export function withSignedClaims(sink: Sink, sign: ClaimUrlSigner): Sink {
  return {
    name: sink.name,
    type: sink.type,
    inlineMaxBytes: sink.inlineMaxBytes,
    deliver: (delivery, signal, abort) =>
      sink.deliver(
        delivery.claim
          ? { ...delivery, claim: { ...delivery.claim, url: sign(delivery.claim.id, delivery.claim.url) } }
          : delivery,
        signal,
        abort,
      ),
    describe: (subject) => sink.describe(subject),
    close: () => sink.close(),
  };
}

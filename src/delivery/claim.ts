// The claim check. A hook's body already lives once in its record, so checking a large body in means
// handing every sink and every retry the same reference to it; queue sinks send that reference
// instead of the bytes when the body is above their inline limit.
import type { ClaimRef, HookRecord } from "../domain/hook.ts";
import type { Sink } from "../sinks/sink.ts";

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

/** The claim for `hook` when its body is above `limit`; `baseUrl` is where consumers reach this gateway. */
export function claimFor(hook: HookRecord, limit: number | undefined, baseUrl: string): ClaimRef | undefined {
  if (limit === undefined || hook.body.length <= limit) return undefined;
  return {
    id: hook.id,
    url: `${baseUrl.replace(/\/$/, "")}/v1/claims/${hook.id}`,
    sha256: hook.sha256,
    size: hook.body.length,
  };
}

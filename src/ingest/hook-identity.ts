// A verified request made a hook record, and what it is deduplicated as. Its dedup key comes from the source's `dedup` setting (the verified
// message id where the scheme signs one); its idempotency key, what consumers dedup on, names its own
// tenant; its dedup identity, the key the store refuses a second copy under, names the tenant the
// signature binds (see dedupTenant): across a source's tenants when they share its secrets.
import { hash } from "node:crypto";
import type { SourceConfig } from "../config/schema.ts";
import { dedupTenant } from "../config/tenant-secrets.ts";
import { type HookRecord, idempotencyKey } from "../domain/hook.ts";
import { bucketFor, newId } from "../domain/ids.ts";
import { computeDedupKey } from "./dedup-key.ts";
import { withoutCredentials } from "./headers.ts";

export interface HookIdentity {
  readonly dedupKey: string;
  /** `tenant:source:dedup_key`, with the hook's own tenant. */
  readonly idempotencyKey: string;
  /** `scope:source:dedup_key`: the store's dedup key and the hook's bucket come from it. */
  readonly dedupIdentity: string;
}

export interface IdentityInput {
  readonly sourceName: string;
  readonly source: SourceConfig;
  readonly tenant: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly sha256: string;
  /** The message id the signature covered, when the scheme signs one. */
  readonly verifiedId: string | undefined;
}

export function hookIdentity(input: IdentityInput): HookIdentity {
  const { sourceName, source, tenant } = input;
  const dedupKey = computeDedupKey(source.dedup, input.headers, input.body, input.sha256, input.verifiedId);
  return {
    dedupKey,
    idempotencyKey: idempotencyKey(tenant, sourceName, dedupKey),
    dedupIdentity: idempotencyKey(dedupTenant(source, tenant), sourceName, dedupKey),
  };
}

/** A verified request, as ingest turns it into a record. */
export interface AcceptedRequest extends Omit<IdentityInput, "sha256"> {
  readonly receivedAt: number;
  readonly traceparent?: string | undefined;
}

/** The record of an accepted request, and the identity the store refuses a second copy under. */
export function newHookRecord(req: AcceptedRequest): { hook: HookRecord; dedupIdentity: string } {
  const { headers, body, tenant } = req;
  const sha256 = hash("sha256", body, "hex");
  const identity = hookIdentity({
    sourceName: req.sourceName,
    source: req.source,
    tenant,
    headers,
    body,
    sha256,
    verifiedId: req.verifiedId,
  });
  const hook: HookRecord = {
    // The dedup identity picks the bucket, so a duplicate meets its first copy's dedup key there.
    id: newId("hk", req.receivedAt, bucketFor(identity.dedupIdentity)),
    source: req.sourceName,
    tenant,
    receivedAt: req.receivedAt,
    contentType: headers["content-type"],
    // The credentials a provider used to reach the gateway stay here unless the source opts in.
    headers: req.source.forward_credentials ? headers : withoutCredentials(headers),
    body,
    sha256,
    dedupKey: identity.dedupKey,
    idempotencyKey: identity.idempotencyKey,
    sinks: req.source.sinks,
    traceparent: req.traceparent,
  };
  return { hook, dedupIdentity: identity.dedupIdentity };
}

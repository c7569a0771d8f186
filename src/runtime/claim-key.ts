// The claim key every process of a deployment signs and checks claim URLs with: `http.claim_signing_key`
// when configured, else one generated once and kept in Redis under the deployment's prefix (SET NX), so
// a URL signed by a worker verifies on any web process.
import { randomBytes } from "node:crypto";
import type { RedisClient } from "../store/redis-client.ts";
import type { Config } from "../config/schema.ts";
import { ClaimSigner } from "../domain/claim-signature.ts";
import type { Keys } from "../store/keys.ts";

/** How long a signed claim URL is valid: `dispatch.claim_url_ttl_s`, never past the hook's retention. */
export function claimUrlTtlS(config: Config): number {
  return Math.min(config.dispatch.claim_url_ttl_s ?? config.retention_s, config.retention_s);
}

export async function loadClaimSigner(redis: RedisClient, keys: Keys, config: Config): Promise<ClaimSigner> {
  let key = config.http.claim_signing_key;
  if (key === undefined) {
    await redis.set(keys.claimSigningKey, randomBytes(32).toString("base64url"), "NX");
    const stored = await redis.get(keys.claimSigningKey);
    if (stored === null)
      throw new Error("the claim signing key vanished from RedisClient right after it was set");
    key = stored;
  }
  return new ClaimSigner(key, claimUrlTtlS(config));
}

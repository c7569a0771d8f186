// Signed, expiring claim URLs. Queue consumers fetch a large body from GET /v1/claims/:id; rather than
// hand every consumer an admin token, each claim URL carries `exp` (Unix seconds) and `sig`, a
// base64url HMAC-SHA256 over "id.exp" with the deployment's claim key, which grants that one id until
// `exp`. Pure: the key comes from config or Redis (runtime/claim-key.ts).
import { createHmac, timingSafeEqual } from "node:crypto";

const EXP = /^\d{1,12}$/;
const SIG_BYTES = 32;

export class ClaimSigner {
  private readonly key: Buffer;

  /**
   * @param key the deployment's claim key (its UTF-8 bytes are the HMAC key)
   * @param ttlS how long a signed URL stays valid
   */
  constructor(
    key: string,
    private readonly ttlS: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = Buffer.from(key, "utf8");
  }

  private mac(id: string, exp: string): Buffer {
    return createHmac("sha256", this.key).update(`${id}.${exp}`).digest();
  }

  /** `url` with `exp` and `sig` for claim `id`, valid for the signer's TTL from now. */
  signUrl(id: string, url: string): string {
    const exp = String(Math.floor(this.now() / 1000) + this.ttlS);
    const sig = this.mac(id, exp).toString("base64url");
    return `${url}${url.includes("?") ? "&" : "?"}exp=${exp}&sig=${sig}`;
  }

  /** Does (`exp`, `sig`) grant claim `id` now? Constant-time in the signature. */
  verify(id: string, exp: string | undefined, sig: string | undefined): boolean {
    if (exp === undefined || sig === undefined || !EXP.test(exp)) return false;
    const presented = Buffer.from(sig, "base64url");
    if (presented.length !== SIG_BYTES) return false;
    const valid = timingSafeEqual(presented, this.mac(id, exp));
    return valid && Number(exp) >= Math.floor(this.now() / 1000);
  }
}

// Signed, expiring claim URLs. Queue consumers fetch a large body from GET /v1/claims/:id; rather than
// hand every consumer an admin token, each claim URL carries `exp` (Unix seconds) and `sig`, a
// base64url HMAC-SHA256 over "id.exp" with the deployment's claim key, which grants that one id until
// `exp`. Pure: the key comes from config or Redis (runtime/claim-key.ts).
import { createHmac, timingSafeEqual } from "node:crypto";

const EXP = /^\d{1,12}$/;
/**
 * The one spelling of a 32-byte MAC in unpadded base64url: 42 characters, then one whose low two bits
 * are zero. Node's decoder is lenient (padding, `+` `/`, stray characters, non-zero trailing bits are all
 * accepted), so without this several URLs would carry one signature.
 */
const SIG = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

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
    if (exp === undefined || sig === undefined || !EXP.test(exp) || !SIG.test(sig)) return false;
    const presented = Buffer.from(sig, "base64url");
    const valid = timingSafeEqual(presented, this.mac(id, exp));
    return valid && Number(exp) >= Math.floor(this.now() / 1000);
  }
}

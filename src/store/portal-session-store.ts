// Portal access in Redis: a magic link's single-use token, and the session it is exchanged for. Both
// are kept under the sha256 of the token (a read of Redis yields no usable credential) and expire when
// the access they grant ends; using a link deletes it in the same command that reads it (GETDEL), so of
// two concurrent uses exactly one wins.
import { createHash, randomBytes } from "node:crypto";
import type { Keys } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";

/** What a link, and the session made from it, lets its holder do. */
export interface PortalGrant {
  readonly tenant: string;
  readonly readOnly: boolean;
  /** Milliseconds since the epoch: the link and its session both end here. */
  readonly expiresAt: number;
}

const digest = (token: string): string => createHash("sha256").update(token).digest("hex");
const newToken = (): string => randomBytes(32).toString("base64url");
/** Tokens this module makes: 32 random bytes, base64url. Anything else is refused without a lookup. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function parseGrant(text: string | null, now: number): PortalGrant | undefined {
  if (text === null) return undefined;
  const value = JSON.parse(text) as { tenant?: unknown; read_only?: unknown; expires_at?: unknown };
  if (typeof value.tenant !== "string" || typeof value.expires_at !== "number") return undefined;
  if (value.expires_at <= now) return undefined;
  return { tenant: value.tenant, readOnly: value.read_only === true, expiresAt: value.expires_at };
}

const grantJson = (g: PortalGrant): string =>
  JSON.stringify({ tenant: g.tenant, read_only: g.readOnly, expires_at: g.expiresAt });

export class PortalSessionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Store a grant behind a fresh single-use link token; answers the token. */
  async mintLink(grant: PortalGrant): Promise<string> {
    const token = newToken();
    await this.redis.set(this.keys.portalLink(digest(token)), grantJson(grant), "PXAT", grant.expiresAt);
    return token;
  }

  /**
   * Use a link: its grant moves to a new session, whose token is answered. Undefined when the link is
   * unknown, already used or expired.
   */
  async exchange(linkToken: string): Promise<{ session: string; grant: PortalGrant } | undefined> {
    if (!TOKEN.test(linkToken)) return undefined;
    const grant = parseGrant(await this.redis.getdel(this.keys.portalLink(digest(linkToken))), this.clock());
    if (!grant) return undefined;
    const session = newToken();
    await this.redis.set(this.keys.portalSession(digest(session)), grantJson(grant), "PXAT", grant.expiresAt);
    return { session, grant };
  }

  /** The grant of a live session, or undefined. */
  async session(token: string): Promise<PortalGrant | undefined> {
    if (!TOKEN.test(token)) return undefined;
    return parseGrant(await this.redis.get(this.keys.portalSession(digest(token))), this.clock());
  }

  /** End a session (sign out). */
  async end(token: string): Promise<void> {
    if (TOKEN.test(token)) await this.redis.del(this.keys.portalSession(digest(token)));
  }
}

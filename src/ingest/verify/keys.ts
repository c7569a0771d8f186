// Per-config key objects, cached by config identity: configs are parsed once at boot and live for the
// process, so building key objects on every request would be pure waste on the hot ingest path.
import type { KeyObject } from "node:crypto";
import { utf8Key } from "./crypto.ts";

const cache = new WeakMap<object, readonly KeyObject[]>();

/** The config's secrets as HMAC keys over their UTF-8 bytes (Stripe, GitHub, Shopify, Slack, custom). */
export function utf8Keys(cfg: { readonly secrets: readonly string[] }): readonly KeyObject[] {
  let keys = cache.get(cfg);
  if (keys === undefined) {
    keys = cfg.secrets.filter((s) => s.length > 0).map(utf8Key);
    cache.set(cfg, keys);
  }
  return keys;
}

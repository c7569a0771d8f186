// A source's `verify` config names its secrets once for every tenant or once per tenant; a verifier
// only ever sees the secrets that apply to the request in hand. This module turns the first into the
// second, once per (config, tenant): the key caches of the verifiers are keyed by config identity.
import type { SchemeView, VerifyConfigBase } from "./preset.ts";

type VerifyConfig = VerifyConfigBase;
/** One scheme's config with the secrets that apply to one request: the shared list or its tenant's. */
export type SchemeConfig = SchemeView<VerifyConfig>;

const SHARED = Symbol("shared");
/** Per config: its shared view (key `SHARED`), or one view per tenant that has secrets. */
const resolved = new WeakMap<VerifyConfig, Map<string | typeof SHARED, SchemeConfig>>();

/**
 * The scheme config a request to `tenant` is verified under; undefined when the source keeps secrets
 * per tenant and has none for this one (the request cannot verify). Stable per (cfg, tenant), and
 * only configured tenants are remembered, whatever tenant a caller passes.
 */
export function schemeConfigFor(cfg: VerifyConfig, tenant: string | undefined): SchemeConfig | undefined {
  // A scheme without secrets (`none`) is its own view.
  if (!("secrets" in cfg || "secrets_by_tenant" in cfg)) return cfg as SchemeConfig;
  const byTenant = cfg.secrets_by_tenant;
  // With per-tenant secrets only a tenant's own list counts: a hook without a tenant has none.
  const key = byTenant === undefined ? SHARED : tenant;
  if (key === undefined) return undefined;
  let views = resolved.get(cfg);
  if (views === undefined) {
    views = new Map();
    resolved.set(cfg, views);
  }
  let view = views.get(key);
  if (view === undefined) {
    // Built once per (config, tenant), not per request.
    const list =
      byTenant === undefined
        ? cfg.secrets
        : Object.hasOwn(byTenant, key)
          ? byTenant[key as string]
          : undefined;
    if (list === undefined) return undefined;
    const { secrets_by_tenant: _byTenant, secrets: _secrets, ...rest } = cfg;
    view = { ...rest, secrets: list } as SchemeConfig;
    views.set(key, view);
  }
  return view;
}

// The tenants a config names (admin tokens bound to one, sources' `tenant` and `tenants`): a bounded
// set, unlike the tenants event bodies and endpoints may name, so the only ones metrics label by.
import type { Config } from "./schema.ts";

export function declaredTenants(config: Config): Set<string> {
  const tenants = new Set<string>();
  for (const token of config.admin.tokens)
    if (typeof token !== "string" && token.tenant) tenants.add(token.tenant);
  for (const source of Object.values(config.sources)) {
    if (source.tenant !== undefined) tenants.add(source.tenant);
    for (const tenant of source.tenants ?? []) tenants.add(tenant);
  }
  return tenants;
}

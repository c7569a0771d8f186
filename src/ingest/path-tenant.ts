// The tenant segment of /webhooks/:tenant/:source is the sender's choice, and it scopes dedup, admin
// visibility and routing keys: a source accepts only the tenants its config names.
import type { SourceConfig } from "../config/schema.ts";

/** May `source` be posted to under path tenant `tenant`? Its fixed `tenant`, or one of `tenants`. */
export function acceptsPathTenant(source: Pick<SourceConfig, "tenant" | "tenants">, tenant: string): boolean {
  return tenant === source.tenant || (source.tenants?.includes(tenant) ?? false);
}

// The path tenant of /webhooks/:tenant/:source is not signed. A source whose tenants share secrets
// therefore cannot tell which tenant a signed message was meant for (ingest dedups across its tenants
// instead); one with `secrets_by_tenant` can, and these checks make that binding hold: every tenant the
// source accepts has secrets, none of them anyone else's.
import { signsNothing } from "./dedup-agreement.ts";
import type { SourceConfig } from "./source-schema.ts";

export interface SecretsIssue {
  /** Under `sources.<name>`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What is wrong with a source's secrets against its tenants; empty when nothing is. */
export function tenantSecretsIssues(src: SourceConfig): SecretsIssue[] {
  const verify = src.verify;
  if (signsNothing(verify)) return [];
  const { secrets, secrets_by_tenant: byTenant } = verify;
  if ((secrets === undefined) === (byTenant === undefined)) {
    return [{ path: ["verify"], message: "give exactly one of secrets and secrets_by_tenant" }];
  }
  if (byTenant === undefined) return [];
  const issues: SecretsIssue[] = [];
  const accepted = new Set([...(src.tenant === undefined ? [] : [src.tenant]), ...(src.tenants ?? [])]);
  for (const tenant of Object.keys(byTenant)) {
    if (!accepted.has(tenant))
      issues.push({
        path: ["verify", "secrets_by_tenant", tenant],
        message: `"${tenant}" is not a tenant of this source (tenant or tenants)`,
      });
  }
  for (const tenant of accepted) {
    if (!Object.hasOwn(byTenant, tenant))
      issues.push({ path: ["verify", "secrets_by_tenant"], message: `no secrets for tenant "${tenant}"` });
  }
  // A secret two tenants share would verify one tenant's messages under the other's path.
  const owner = new Map<string, string>();
  for (const [tenant, list] of Object.entries(byTenant)) {
    list.forEach((secret, i) => {
      const first = owner.get(secret);
      if (first !== undefined && first !== tenant)
        issues.push({
          path: ["verify", "secrets_by_tenant", tenant, i],
          message: `the same secret as tenant "${first}": each tenant needs its own`,
        });
      owner.set(secret, first ?? tenant);
    });
  }
  return issues;
}

/**
 * The tenant a source's dedup identity is scoped to. With per-tenant secrets the signature binds the
 * path tenant, so each tenant is its own scope; with shared secrets it binds none, so one signed message
 * is accepted once across every tenant of the source (scoped to its fixed tenant, if any). Unsigned
 * (`none`) sources keep the path tenant: nothing binds their hooks to anything, and identical bodies
 * posted for two tenants are two hooks.
 */
export function dedupTenant(src: SourceConfig, tenant: string | undefined): string | undefined {
  if (src.verify.secrets_by_tenant !== undefined || signsNothing(src.verify)) return tenant;
  return src.tenant;
}

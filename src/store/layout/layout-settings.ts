// The parts of a config the layout migrations read, taken from it once at boot (and by `switchyard
// migrate`), so a migration sees plain values instead of the whole config.
import type { Config } from "../../config/schema.ts";
import { dedupTenant } from "../../config/tenant-secrets.ts";
import { sinkPartitionsOf } from "../../queue/delivery-job.ts";
import type { LayoutSettings } from "./migration.ts";

export function layoutSettingsOf(config: Config): LayoutSettings {
  const shared = new Map<string, string | undefined>();
  for (const [name, source] of Object.entries(config.sources)) {
    const tenants = source.tenants ?? [];
    // A source whose path tenants are deduplicated as one: its identity no longer names the path tenant.
    if (tenants.length > 0 && tenants.some((t) => dedupTenant(source, t) !== t))
      shared.set(name, dedupTenant(source, tenants[0]));
  }
  return {
    retentionS: config.retention_s,
    staleAfterMs: config.recovery.stale_after_ms,
    sinkPartitions: sinkPartitionsOf(config.sinks),
    sharedDedupSources: shared,
  };
}

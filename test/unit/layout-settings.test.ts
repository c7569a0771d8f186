// What the layout migrations take from a config: retention_s, and the sources whose tenants now share
// one dedup identity (the 1 -> 2 migration carries their dedup keys over): a source with tenants and
// shared secrets, not one with per-tenant secrets, an unsigned one, or one without tenants.
import { expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.ts";
import { layoutSettingsOf } from "../../src/store/layout/layout-settings.ts";

it("layoutSettingsOf: retention_s, and the sources whose path tenants share one dedup identity", () => {
  const base = { sinks: ["audit"], allow_non_durable: true };
  const config = configSchema().parse({
    retention_s: 345_600,
    sinks: { audit: { type: "log" } },
    sources: {
      shared: { ...base, tenants: ["a", "b"], verify: { type: "github", secrets: ["s3cret-s3cret"] } },
      fixed: { ...base, tenant: "t", tenants: ["a"], verify: { type: "github", secrets: ["s3cret-s3cret"] } },
      own: { ...base, tenants: ["a"], verify: { type: "github", secrets_by_tenant: { a: ["sa"] } } },
      unsigned: { ...base, tenants: ["a", "b"], verify: { type: "none" } },
      single: { ...base, verify: { type: "github", secrets: ["s3cret-s3cret"] } },
    },
  });
  const settings = layoutSettingsOf(config);
  expect(settings.retentionS).toBe(345_600);
  expect([...settings.sharedDedupSources]).toEqual([
    ["shared", undefined],
    ["fixed", "t"],
  ]);
});

// Layout 1 -> 2: what changed in Redis since release 0.1.0 (d5dabd7) and needs the data written by it
// brought along. Events of a tenant keep the key 0.1.0 gave them (`event:<id>`); the event store
// reads that key for a tenant whose `<tenant>/<id>` key is missing (legacy-event-ref.ts), so nothing
// is moved under a running 0.1.0 worker. Each step is idempotent and recorded when done
// (run-migration.ts), and old processes may keep writing beside it (see README, Upgrading).
import type { LayoutMigration } from "../migration.ts";
import { STEPS } from "./layout-1-to-2-steps.ts";

export const layout1To2: LayoutMigration = {
  from: 1,
  to: 2,
  description:
    "stamp payload_format raw on existing endpoints, list tenantless endpoints and live replays for their caps, carry shared-tenant dedup keys to their new identity, expire what 0.1.0 kept for good",
  async plan(ctx) {
    const lines: string[] = [];
    for (const step of STEPS) lines.push(`${step.name}: ${step.describe(await step.visit(ctx, false))}`);
    return lines;
  },
  async run(ctx) {
    for (const step of STEPS)
      await ctx.step(step.name, async () => {
        const count = await step.visit(ctx, true);
        ctx.logger.info({ step: step.name, count }, `layout migration 1 -> 2: ${step.describe(count)}`);
      });
  },
};

// Moving one dead delivery back to its queue for a replay, idempotently. The ledger's revive is the
// step that counts (dead → pending under this replay's id, atomically off the DLQ); making its job
// run again follows, and is itself idempotent. A runner that crashed between the two finds the row
// pending under its own replay id ('already') and makes the job run then.
import type { DeliveryId, ReplayId } from "../domain/ids.ts";
import type { DeliveryQueueing } from "../queue/delivery-queueing.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";

export type MoveOutcome = { readonly kind: "moved" } | { readonly kind: "failed"; readonly reason: string };

const MOVED: MoveOutcome = { kind: "moved" };
const failed = (reason: string): MoveOutcome => ({ kind: "failed", reason });

/** Send the dead delivery `id` back to its queue under `replayId`, with a fresh attempt budget. */
export async function moveEntry(
  ledger: DeliveryStore,
  queues: Pick<DeliveryQueueing, "has" | "ensure">,
  id: DeliveryId,
  replayId: ReplayId,
  snapshotAt: number,
): Promise<MoveOutcome> {
  const row = await ledger.get(id);
  if (!row) return failed("the delivery no longer exists");
  if (!queues.has(row)) return failed("its sink is no longer configured");
  const revived = await ledger.revive(row, replayId, snapshotAt);
  switch (revived) {
    case "moved":
      await queues.ensure(row);
      return MOVED;
    case "already":
      // Moved by this replay before; if the runner died before its job ran again, run it now.
      if (row.state === "pending") await queues.ensure(row);
      return MOVED;
    case "newer":
      return failed("it died again after the replay began");
    case "missing":
    case "gone":
      return failed("its record no longer exists");
    case "pending":
    case "sending":
    case "retrying":
    case "delivered":
    case "dead":
      return failed(`the delivery is ${revived}, not dead`);
  }
}

// How a delivery row is stored: the short field names of its Redis hash, read back into a DeliveryRow.
// Kept beside the scripts that write them (src/store/lua/*), apart from the ledger's operations.
import type { DeliveryRow, DeliveryState } from "../domain/delivery.ts";
import { parseTarget } from "../domain/delivery.ts";
import type { ErrorClass } from "../domain/error-class.ts";
import type { DeliveryId, ReplayId } from "../domain/ids.ts";

const int = (v: string | undefined): number | undefined =>
  v === undefined || v === "" ? undefined : Number(v);

export function parseRow(id: DeliveryId, raw: Record<string, string>): DeliveryRow | undefined {
  const target = raw.t === undefined ? undefined : parseTarget(raw.t);
  if (raw.st === undefined || raw.p === undefined || !target) return undefined;
  return {
    id,
    parentId: raw.p,
    target,
    state: raw.st as DeliveryState,
    attempts: Number(raw.a ?? 0),
    createdAt: Number(raw.c ?? 0),
    firstAttemptAt: int(raw.fa),
    lastAttemptAt: int(raw.la),
    nextAttemptAt: int(raw.na),
    deliveredAt: int(raw.da),
    deadAt: int(raw.xa),
    lastError: raw.le,
    errorClass: raw.ec as ErrorClass | undefined,
    statusCode: int(raw.sc),
    leaseOwner: raw.lo,
    leaseUntil: int(raw.lu),
    fence: Number(raw.f ?? 0),
    replayId: raw.rp as ReplayId | undefined,
    source: raw.s ?? "",
    tenant: raw.tn,
    enqueueFailed: raw.ef === "1",
    purged: raw.purged === "1",
  };
}

// Which DLQ indexes a dead delivery is listed in. The indexes are sorted sets per bucket, scored by
// dead_at, one per filter value an operator narrows by; the ledger writes them in the same script that
// kills or revives a row, and the DLQ reader walks them.
import type { DeliveryRow } from "../domain/delivery.ts";
import type { ErrorClass } from "../domain/error-class.ts";
import { bucketOf } from "../domain/ids.ts";
import type { DlqIndexName, Keys } from "./keys.ts";

/** The index names of a dead row (of class `errorClass`). */
export function dlqIndexNames(
  row: Pick<DeliveryRow, "target" | "source" | "tenant">,
  errorClass: ErrorClass,
): DlqIndexName[] {
  const names: DlqIndexName[] = ["all", `class:${errorClass}`];
  switch (row.target.kind) {
    case "sink":
      names.push(`sink:${row.target.name}`, `source:${row.source}`);
      break;
    case "endpoint":
      names.push(`endpoint:${row.target.id}`);
      break;
  }
  if (row.tenant !== undefined) names.push(`tenant:${row.tenant}`);
  return names;
}

/** The index keys of a dead row, in its bucket. */
export function dlqIndexKeys(
  keys: Keys,
  row: Pick<DeliveryRow, "id" | "target" | "source" | "tenant">,
  errorClass: ErrorClass,
): string[] {
  const bucket = bucketOf(row.id);
  return dlqIndexNames(row, errorClass).map((name) => keys.dlqIndex(bucket, name));
}

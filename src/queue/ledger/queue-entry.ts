// One delivery as a ledger queue holds it (docs/ledger-dispatch.md): what a worker needs before it claims
// the row, in one short string: the delivery id, the endpoint (outbound only: admission reads it) and
// the parent record's id. Ids never contain `|`; the parent goes last, so whatever it holds survives.
import type { DeliveryJobData } from "../delivery-job.ts";

export interface QueueEntry {
  /** The delivery row's id (`dl_…`). */
  readonly id: string;
  readonly data: DeliveryJobData;
}

const SEPARATOR = "|";

export function encodeEntry(entry: QueueEntry): string {
  if (!entry.id.startsWith("dl_") || entry.id.includes(SEPARATOR))
    throw new Error(`not a delivery id: ${entry.id}`);
  const endpoint = entry.data.e ?? "";
  if (endpoint.includes(SEPARATOR)) throw new Error(`not an endpoint id: ${endpoint}`);
  return `${entry.id}${SEPARATOR}${endpoint}${SEPARATOR}${entry.data.p}`;
}

/** The entry `raw` encodes; throws on anything encodeEntry could not have written. */
export function decodeEntry(raw: string): QueueEntry {
  const first = raw.indexOf(SEPARATOR);
  const second = first < 0 ? -1 : raw.indexOf(SEPARATOR, first + 1);
  const id = raw.slice(0, first);
  if (second < 0 || !id.startsWith("dl_")) throw new Error(`not a ledger queue entry: ${raw.slice(0, 80)}`);
  const endpoint = raw.slice(first + 1, second);
  const p = raw.slice(second + 1);
  return { id, data: endpoint === "" ? { p } : { p, e: endpoint } };
}

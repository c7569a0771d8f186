// What one destination (the HTTP sink's path, the AMQP queue, the outbound endpoints) really received,
// keyed by the sender's own id for the item: the ground truth the ledger's claims are checked against.
// A second arrival of a key is a duplicate; the Switchyard ids seen for a key tell a redelivery of one
// record (at-least-once) from a second record of the same item (a dedup miss).

/** One arrival: when, under which Switchyard record, and the attempt number the sender gave, if any. */
export interface Arrival {
  readonly at: number;
  readonly recordId: string;
  readonly attempt: string | undefined;
}

export class Arrivals {
  private readonly counts = new Map<string, number>();
  private readonly recordIds = new Map<string, Set<string>>();
  private readonly seen = new Map<string, Arrival[]>();

  /** Record one arrival of `key`, carried by Switchyard record `recordId` (hook or event id). */
  add(key: string, recordId: string, attempt?: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const arrival = { at: Date.now(), recordId, attempt };
    const list = this.seen.get(key);
    if (list) list.push(arrival);
    else this.seen.set(key, [arrival]);
    let ids = this.recordIds.get(key);
    if (!ids) this.recordIds.set(key, (ids = new Set()));
    ids.add(recordId);
  }

  has(key: string): boolean {
    return this.counts.has(key);
  }

  /** Distinct keys received. */
  get unique(): number {
    return this.counts.size;
  }

  /** Arrivals beyond the first of each key. */
  get duplicates(): number {
    let extra = 0;
    for (const n of this.counts.values()) extra += n - 1;
    return extra;
  }

  /** Keys that arrived under more than one Switchyard record. */
  get keysWithSeveralRecords(): number {
    let n = 0;
    for (const ids of this.recordIds.values()) if (ids.size > 1) n += 1;
    return n;
  }

  /** Keys that arrived more than once, with each arrival. */
  duplicated(): [string, readonly Arrival[]][] {
    return [...this.seen].filter(([, list]) => list.length > 1);
  }

  keys(): IterableIterator<string> {
    return this.counts.keys();
  }
}

// What one destination (the HTTP sink's path, the AMQP queue, the outbound endpoints) really received,
// keyed by the sender's own id for the item: the ground truth the ledger's claims are checked against.
// A second arrival of a key is a duplicate; the Switchyard ids seen for a key tell a redelivery of one
// record (at-least-once) from a second record of the same item (a dedup miss).

export class Arrivals {
  private readonly counts = new Map<string, number>();
  private readonly recordIds = new Map<string, Set<string>>();

  /** Record one arrival of `key`, carried by Switchyard record `recordId` (hook or event id). */
  add(key: string, recordId: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
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

  keys(): IterableIterator<string> {
    return this.counts.keys();
  }
}

// The data layouts a Redis can hold under one prefix, numbered. The number is stored in Redis
// (Keys#layoutVersion) so that a process can tell, before it writes anything, whether it understands
// the keys it is about to touch: a newer process migrates, an older one refuses to start.

/** The layout this release reads and writes. */
export const CURRENT_LAYOUT = 2;

/** What each layout is, for messages and `switchyard migrate`. */
export const LAYOUTS: Readonly<Record<number, string>> = {
  0: "pre-ledger: every key under the one hash tag {<prefix>} (hook records with per-sink state, jobs as the only copy of a delivery, the DLQ as its own entries)",
  1: "the delivery ledger: a row per (hook, sink) beside its hook in one of 16 bucket tags {<prefix>:<bucket>}, one tag per queue, the DLQ as indexes over dead rows",
  2: "tenant-scoped events: layout 1 with tenant events keyed <tenant>/<id>, payload_format on every endpoint, the sets the caps per tenant count (list:-, live replays), dedup identities naming the tenant a signature binds, and expiry on what layout 1 kept for good",
};

/** Exit code of a process that refuses to start on a layout it cannot use (EX_CONFIG, as a bad config). */
export const EX_LAYOUT = 78;

/** The layout in Redis is not one this process can use or migrate: it must not start. */
export class LayoutError extends Error {
  readonly exitCode = EX_LAYOUT;
}

/** How a layout is named in messages. */
export function describeLayout(version: number): string {
  const what = LAYOUTS[version];
  return what === undefined ? `layout ${version}` : `layout ${version} (${what.split(":")[0]})`;
}

// Splitting one batch into per-slot (or per-node) parts and putting the answers back in batch order.

/** The positions of `items`, grouped by `groupOf(item)`, in first-seen group order. */
export function groupIndexes<T, G>(items: readonly T[], groupOf: (item: T) => G): Map<G, number[]> {
  const groups = new Map<G, number[]>();
  items.forEach((item, i) => {
    const group = groupOf(item);
    const members = groups.get(group);
    if (members) members.push(i);
    else groups.set(group, [i]);
  });
  return groups;
}

/**
 * Run `run` once per group of `items` (by `groupOf`), all at once, and return its answers in the order
 * of `items`: how a batch script call is split per cluster slot and put back together.
 */
export async function inGroups<T, G, R>(
  items: readonly T[],
  groupOf: (item: T) => G,
  run: (group: readonly T[]) => Promise<readonly R[]>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  await Promise.all(
    [...groupIndexes(items, groupOf).values()].map(async (indexes) => {
      const answers = await run(indexes.map((i) => items[i] as T));
      indexes.forEach((i, j) => (out[i] = answers[j] as R));
    }),
  );
  return out;
}

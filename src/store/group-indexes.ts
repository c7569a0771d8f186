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

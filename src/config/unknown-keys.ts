// Unknown keys in the config are errors, not silently ignored: a typo (`timeout: 500` for
// `timeout_ms`) would otherwise leave a default in force that the operator believes changed. Every
// object of the schema is built with `strict.object` here, whose error names each unknown key and,
// when a known key is close, the one probably meant; the loader turns that into one line per key.
import { z } from "zod";

/** Edit distance between two keys: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

// Keys end in their unit (`timeout_ms`, `retention_s`): a key with the right stem and another unit,
// or none, is a near miss whatever the edit distance.
const stem = (key: string): string => key.replace(/_(ms|s|days|d|h|m|bytes|b|kb|mb)$/, "");

/** The known key `key` was probably meant to be, if one is close enough. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate);
    // Short keys tolerate one slip (`prot` for `port`), longer ones a quarter of their length.
    const slips = candidate.length <= 5 ? 1 : Math.max(2, Math.floor(candidate.length / 4));
    const near = d <= slips || stem(key) === stem(candidate);
    if (near && d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** What is said of one unknown key among `known`. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const meant = closestKey(key, known);
  return meant === undefined ? "unknown key" : `unknown key (did you mean ${meant}?)`;
}

// One zod issue names every unknown key of an object; its message carries one line per key, in the
// order of `keys`, which the loader splits back into one error per key path.
const SEPARATOR = "\n";

/** A zod object that refuses keys its shape does not name. */
function strictObject<T extends z.core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? iss.keys.map((key) => unknownKeyMessage(key, known)).join(SEPARATOR)
        : undefined,
  });
}

/** `strict.object(shape)` in place of `z.object(shape)`, for every object of the config schema. */
export const strict = { object: strictObject };

/** The messages of an `unrecognized_keys` issue, one per key (the message as a whole if it was not ours). */
export function unknownKeyMessages(keys: readonly string[], message: string): string[] {
  const lines = message.split(SEPARATOR);
  return lines.length === keys.length ? lines : keys.map(() => message);
}

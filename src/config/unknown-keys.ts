// Unknown keys in the config are errors, not silently ignored: a typo (`timeout: 500` for
// `timeout_ms`) would otherwise leave a default in force that the operator believes changed. Every
// object of the schema is built with `strict.object` here, whose error names each unknown key and,
// when a known key is close, the one probably meant; the loader turns that into one line per key.
import { z } from "zod";

/** Levenshtein distance between two keys. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
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
    const near = d <= Math.max(2, Math.floor(candidate.length / 4)) || stem(key) === stem(candidate);
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

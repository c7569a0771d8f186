// What the memory measurements of bench:memory share: the 1 KiB body, Redis's used memory and key count,
// a bounded-concurrency loop, polling, and the answer of the receiver that refuses every delivery with a
// 422 (a permanent failure: the delivery is dead-lettered at once, and no breaker counts it).
import type { Redis } from "ioredis";
import type { ReceiverOptions } from "../../shared/receiver.ts";

export const BODY = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(960) } }).slice(0, 1024);

/** INFO used_memory (bytes) and DBSIZE. */
export async function footprint(redis: Redis): Promise<{ bytes: number; keys: number }> {
  const info = await redis.info("memory");
  return { bytes: Number(/^used_memory:(\d+)/m.exec(info)?.[1]), keys: await redis.dbsize() };
}

/** Growth per item between two footprints. */
export function perItem(
  before: { bytes: number; keys: number },
  after: { bytes: number; keys: number },
  n: number,
): { bytes: number; keys: number } {
  return { bytes: (after.bytes - before.bytes) / n, keys: (after.keys - before.keys) / n };
}

/** Run `fn(0..n-1)` with at most `concurrency` calls in flight; resolves with the last result. */
export async function forEachConcurrently<T>(
  n: number,
  concurrency: number,
  fn: (i: number) => Promise<T>,
): Promise<T | undefined> {
  let next = 0;
  let last: T | undefined;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) last = await fn(next++);
    }),
  );
  return last;
}

/** Poll `done` every 50 ms until it resolves true; fail after `timeoutMs` with `what`. */
export async function until(done: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The shared receiver's answer for the dead letters: 422, a permanent failure. */
export const REFUSE: ReceiverOptions = {
  answer: { status: 422, contentType: "text/plain", body: "refused" },
};

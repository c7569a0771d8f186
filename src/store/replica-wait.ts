// Durable acks: wait until replicas hold a hook's writes (Redis WAIT). WAIT counts the writes of the
// connection it is sent on, so on a cluster it goes to the master of each written key, on the very
// connection that carried the write. WAIT also blocks its connection until it returns, and the
// connection is shared by every request: one WAIT per ingest would queue them one behind the other
// (a replica down would cost every request the whole timeout, in turn). So callers share WAITs: a WAIT
// sent after a caller's writes were acknowledged covers them, so whoever arrives while one is out joins
// the next one, and a connection never has more than one WAIT out and one waiting.
import type { Redis } from "ioredis";
import { keySlot } from "./key-slot.ts";
import { type RedisClient, isCluster } from "./redis-client.ts";

interface Turns {
  /** The WAIT out now (sent before the callers waiting on `next` had their writes acknowledged). */
  current?: Promise<number>;
  /** The WAIT to send once `current` returns, shared by everyone who arrived meanwhile. */
  next?: Promise<number>;
}

const turnsOf = new WeakMap<Redis, Turns>();

/** WAIT on `node` covering every write it acknowledged before this call, sharing WAITs with others. */
function sharedWait(node: Redis, replicas: number, timeoutMs: number): Promise<number> {
  let turns = turnsOf.get(node);
  if (!turns) turnsOf.set(node, (turns = {}));
  const t = turns;
  const send = (): Promise<number> => {
    const sent = node.wait(replicas, timeoutMs);
    t.current = sent;
    const clear = (): void => {
      if (t.current === sent) t.current = undefined;
    };
    sent.then(clear, clear);
    return sent;
  };
  if (!t.current) return send();
  t.next ??= t.current
    .catch(() => 0)
    .then(() => {
      t.next = undefined;
      return send();
    });
  return t.next;
}

/**
 * Wait until `replicas` replicas hold every write this client made to the keys `written` (with
 * `timeoutMs`). On a cluster, on the master serving each key's slot now; the answer is the fewest
 * replicas any of them reached (0 when a slot has no known master: the write may not have reached a
 * replica).
 */
export async function waitForReplicas(
  redis: RedisClient,
  written: readonly string[],
  replicas: number,
  timeoutMs: number,
): Promise<number> {
  if (!isCluster(redis)) return sharedWait(redis, replicas, timeoutMs);
  const owners = new Set(written.map((key) => redis.slots[keySlot(key)]?.[0]));
  if (owners.has(undefined)) return 0;
  const masters = new Map(
    redis.nodes("master").map((node) => [`${node.options.host}:${node.options.port}`, node]),
  );
  const acked = await Promise.all(
    [...owners].map((owner) => {
      const node = masters.get(owner as string);
      return node ? sharedWait(node, replicas, timeoutMs) : Promise.resolve(0);
    }),
  );
  return Math.min(...acked);
}

// A tick's commands leave for Redis in one socket write, not one each: on a busy worker every completed
// attempt sent its own BullMQ completion, one system call apiece. Against the real Redis, counting the
// writes the connection's socket makes; the replies must be those of the commands, in order.
import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closeRedis, connectRedis, createCommandRedis, createWorkerRedis } from "../../src/runtime/redis.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { type TestCluster, startTestCluster } from "../support/redis-cluster.ts";
import { REDIS_URL } from "../support/test-gateway.ts";

const opened: RedisClient[] = [];
const prefix = `coalesce-${randomUUID()}`;

afterEach(async () => {
  for (const client of opened.splice(0)) {
    await client.del(`${prefix}:n`, `${prefix}:list`);
    await closeRedis(client);
  }
});

/** Counts the writes (write or writev) the connection's socket makes from now on. */
function countWrites(client: RedisClient | Redis): () => number {
  const socket = (client as unknown as { stream: Socket & { _writeGeneric: (...a: unknown[]) => unknown } })
    .stream;
  let writes = 0;
  const write = socket._writeGeneric.bind(socket);
  socket._writeGeneric = (...args: unknown[]) => {
    writes++;
    return write(...args);
  };
  return () => writes;
}

describe.each([
  ["command", createCommandRedis],
  ["worker", createWorkerRedis],
])("%s connection: socket writes per tick", (_role, create) => {
  it("redis_command_per_write: 50 commands sent in one tick take one write, replies in order", async () => {
    const client = create({ url: REDIS_URL });
    opened.push(client);
    await connectRedis(client, { url: REDIS_URL });
    const writes = countWrites(client);

    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0 ? client.incr(`${prefix}:n`) : client.rpush(`${prefix}:list`, String(i)),
      ),
    );

    expect(writes()).toBe(1);
    expect(replies.filter((_, i) => i % 2 === 0)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(replies.filter((_, i) => i % 2 === 1)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(await client.lrange(`${prefix}:list`, 0, -1)).toEqual(
      Array.from({ length: 25 }, (_, i) => String(2 * i + 1)),
    );
  });

  it("sends a command of a later tick in a write of its own, without waiting for more", async () => {
    const client = create({ url: REDIS_URL });
    opened.push(client);
    await connectRedis(client, { url: REDIS_URL });
    const writes = countWrites(client);

    expect(await client.incr(`${prefix}:n`)).toBe(1);
    expect(await client.incr(`${prefix}:n`)).toBe(2);
    expect(writes()).toBe(2);
  });
});

describe("cluster: socket writes per tick on a node's connection", () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it("redis_command_per_write on a cluster: one slot's 30 commands of one tick take one write there", async () => {
    const client = createCommandRedis({ url: REDIS_URL, cluster: { nodes: cluster.seeds } });
    await connectRedis(client, { url: REDIS_URL, cluster: { nodes: cluster.seeds } });
    const key = `{${prefix}}:n`;
    try {
      expect(await client.incr(key)).toBe(1); // the slot's node connection is open from here
      // Only the nodes ioredis has connected to so far have a socket (the slot's, at least).
      const nodes = (client as unknown as { nodes(role: string): Redis[] })
        .nodes("master")
        .filter((node) => (node as unknown as { stream?: unknown }).stream !== undefined);
      const counters = nodes.map((node) => countWrites(node));

      const replies = await Promise.all(Array.from({ length: 30 }, () => client.incr(key)));

      expect(replies).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
      expect(counters.reduce((sum, writes) => sum + writes(), 0)).toBe(1);
    } finally {
      await client.del(key);
      await closeRedis(client);
    }
  }, 30_000);
});

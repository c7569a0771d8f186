// Shutdown closed connections with disconnect(): a command still in flight was failed with ioredis's
// "Connection is closed." (raised from its close handler), a rejection whose caller may be gone (the
// teardown error the test runner used to ignore). closeRedis quits instead: commands in flight get
// their replies, then the connection closes.
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { closeRedis, createWorkerRedis } from "../../src/runtime/redis.ts";
import { REDIS_URL, eventually } from "../support/test-gateway.ts";

it("a command in flight when its connection is closed at shutdown gets its reply, not 'Connection is closed.'", async () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  await redis.ping();
  // In flight for 300 ms (a blocking pop on a key nobody writes), as a worker's command may be.
  const inFlight = redis.blpop(`close-redis-test:${process.pid}:${Date.now()}`, 0.3);
  await new Promise((r) => setTimeout(r, 50));
  await closeRedis(redis);
  await expect(inFlight).resolves.toBeNull();
  await eventually(() => redis.status === "end", 2000, "the connection to end");
});

it("closeRedis drops a connection that cannot quit in time (Redis away)", async () => {
  const redis = new Redis("redis://127.0.0.1:1", { lazyConnect: true, maxRetriesPerRequest: null });
  redis.on("error", () => undefined);
  redis.connect().catch(() => undefined);
  const started = Date.now();
  await closeRedis(redis, 300);
  expect(Date.now() - started).toBeLessThan(2000);
  await eventually(() => redis.status === "end", 2000, "the connection to end");
});

// Found by a full run: BullMQ, sharing a worker connection, can send a last command of its own (a
// stalled-job check, a version check) just after its Worker.close() resolved, after our QUIT: failed
// with "Connection is closed." inside BullMQ, an unhandled rejection. closeRedis waits for a worker
// connection to fall quiet before it quits.
it("worker_connection_straggler_after_quit: a command sent just after closing begins still gets its reply", async () => {
  const redis = createWorkerRedis({ url: REDIS_URL }, "close-redis-test");
  await redis.connect();
  await redis.ping();
  const closing = closeRedis(redis);
  // A straggler 30 ms after closing began, as BullMQ's own timers may send one.
  const straggler = new Promise((r) => setTimeout(r, 30)).then(() => redis.ping());
  await expect(straggler).resolves.toBe("PONG");
  await closing;
  await eventually(() => redis.status === "end", 2000, "the connection to end");
});

/**
 * Run `close` on `redis` and return the unhandled rejections seen until the connection has ended and
 * settled.
 */
async function unhandledAroundClose(redis: Redis, close: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    await close();
    await eventually(() => redis.status === "end", 2000, "the connection to end");
    await new Promise((r) => setTimeout(r, 100));
    return unhandled;
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
}

// Found by full runs (twice, from different tests): a component that had not yet noticed the stop (a
// timer's last pass) sent a command after the QUIT and never looked at its answer; Redis hung up after
// answering the QUIT, ioredis failed the command with "Connection is closed.", and the rejection was
// an unhandled one (in production, the end of the process with exit code 1).
it("late_command_after_quit: a command sent after the QUIT that nobody awaits is no unhandled rejection", async () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  await redis.ping();
  const quit = redis.quit.bind(redis);
  let late: Promise<unknown> | undefined;
  redis.quit = () => {
    const quitting = quit();
    late = redis.ping(); // right behind the QUIT, and (below) awaited by nobody until the end
    return quitting;
  };
  expect(await unhandledAroundClose(redis, () => closeRedis(redis))).toEqual([]);
  // Whoever does await it still hears why it failed.
  await expect(late).rejects.toThrow("Connection is closed.");
});

// The same, for a command already waiting when the connection is dropped: the QUIT waits behind a
// blocking command, runs out of time, and the drop fails everything still queued.
it("pending_command_at_disconnect: a command still waiting when the QUIT cannot finish is no unhandled rejection", async () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  await redis.ping();
  // Blocks for 5 s on a key nobody writes; awaited by nobody until the end.
  const blocked = redis.blpop(`close-redis-test:${process.pid}:${Date.now()}:blocked`, 5);
  await new Promise((r) => setTimeout(r, 50));
  expect(await unhandledAroundClose(redis, () => closeRedis(redis, 300))).toEqual([]);
  await expect(blocked).rejects.toThrow("Connection is closed.");
});

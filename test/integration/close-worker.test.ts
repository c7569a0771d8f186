// Found by full runs (a gateway stopped right after it started): a BullMQ Worker closed while its own
// blocking connection was still starting failed that connection's version check ("Connection is
// closed.") after BullMQ had removed the listener its failure goes to; the rejection was an unhandled
// one, in production the end of a stopping process with exit code 1. closeWorker lets the start finish.
import { Worker } from "bullmq";
import { expect, it } from "vitest";
import { closeWorker } from "../../src/queue/bullmq/close-worker.ts";
import { closeRedis, createWorkerRedis } from "../../src/runtime/redis.ts";
import { REDIS_URL } from "../support/test-gateway.ts";

it("worker_closed_while_starting: closing a worker whose connection is still starting is no unhandled rejection", async () => {
  const connection = createWorkerRedis({ url: REDIS_URL }, "close-worker-test");
  const prefix = `close-worker-test-${process.pid}-${Date.now()}`;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    // Closed at once and a few milliseconds in: the start is at a different step each time.
    for (let i = 0; i < 20; i++) {
      const worker = new Worker("q", async () => undefined, { connection, prefix });
      worker.on("error", () => undefined);
      await new Promise((r) => setTimeout(r, i % 5));
      await closeWorker(worker);
    }
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    process.off("unhandledRejection", onUnhandled);
    // The workers' start writes the queue's meta and stalled-check keys (a plain BullMQ prefix, no
    // hash tag): the test leaves nothing behind.
    let cursor = "0";
    do {
      const [next, keys] = await connection.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await connection.unlink(...keys);
    } while (cursor !== "0");
    await closeRedis(connection);
  }
  expect(unhandled.map((e) => (e as Error).message)).toEqual([]);
});

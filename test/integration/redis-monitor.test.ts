// The tests' MONITOR (test/support/redis-monitor.ts). Regression (ioredis monitor race): ioredis's
// monitor() on a busy Redis threw "Command queue state error" from its socket when a monitored command
// came in the same read as MONITOR's +OK, which failed a CI run in ingest-one-round-trip; reproduced
// with 50 ioredis monitors started while another client floods SETs: 2 uncaught errors, none ready.
import { Redis } from "ioredis";
import { afterAll, expect, it } from "vitest";
import { monitorArgs, monitorRedis } from "../support/redis-monitor.ts";
import { REDIS_URL } from "../support/test-gateway.ts";

const prefix = `mon${Date.now().toString(36)}`;
const busy = new Redis(REDIS_URL);
afterAll(async () => {
  await busy.del(`${prefix}:k`);
  busy.disconnect();
});

it("decodes a MONITOR line's quoted arguments and their escapes", () => {
  const line = String.raw`1796599110.851705 [0 127.0.0.1:58928] "evalsha" "a\"b" "c\\d" "\xde\x00" "l1\nl2" ""`;
  expect(monitorArgs(line)).toEqual(["evalsha", 'a"b', "c\\d", "\xde\x00", "l1\nl2", ""]);
});

it("starts on a busy Redis every time, and hears the commands sent after it answered", async () => {
  let flooding = true;
  const flood = (async () => {
    while (flooding) {
      const pipeline = busy.pipeline();
      for (let i = 0; i < 50; i++) pipeline.set(`${prefix}:k`, String(i));
      await pipeline.exec();
    }
  })();
  try {
    for (let i = 0; i < 20; i++) {
      const monitor = await monitorRedis(REDIS_URL);
      const heard = new Promise<string[]>((resolve) =>
        monitor.on("monitor", (_time, args) => {
          if (args[0]?.toLowerCase() === "echo" && args[1] === `${prefix}-${i}`) resolve(args);
        }),
      );
      await busy.echo(`${prefix}-${i}`);
      expect(await heard).toEqual(["echo", `${prefix}-${i}`]);
      monitor.disconnect();
    }
  } finally {
    flooding = false;
    await flood;
  }
});

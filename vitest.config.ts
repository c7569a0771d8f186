// Test runner setup: unit tests are fast and pure; integration and e2e tests share one real Redis and RabbitMQ,
// so files run in a few forks rather than all at once on a 2-core machine.
import { defineConfig } from "vitest/config";

/**
 * A command that ioredis rejects because its connection closed while a gateway was being torn down
 * (its close handler flushes the queue: "Connection is closed.", raised from ioredis's own event
 * handler, nothing of ours on the stack). Seen rarely, under load, after an outbound worker stops; not
 * yet traced to its source (see the README's known issues). Every other unhandled error fails the run.
 */
function isTeardownFlush(error: { message?: string; stack?: string }): boolean {
  const stack = error.stack ?? "";
  return (
    error.message === "Connection is closed." &&
    stack.includes("ioredis/built/redis/event_handler.js") &&
    !/\/(src|test)\//.test(stack)
  );
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/run-tmpdir.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
    onUnhandledError: (error) => (isTeardownFlush(error) ? false : undefined),
  },
});

// Test runner setup: unit tests are fast and pure; integration and e2e tests share one real Redis and RabbitMQ,
// so files run in a few forks rather than all at once on a 2-core machine.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    globalSetup: ["test/support/run-tmpdir.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
  },
});

// The `dispatch` role: every sink's worker pool.
import { Dispatcher } from "../../delivery/dispatcher.ts";
import { createSink } from "../../sinks/registry.ts";
import type { Sink } from "../../sinks/sink.ts";
import { createWorkerRedis } from "../redis.ts";
import type { Core } from "./core.ts";

export function startDispatchRole(core: Core, graceMs: number | undefined): void {
  const { config, logger, life } = core;
  const connection = createWorkerRedis(config.redis.url);
  connection.on("error", (err: Error) => logger.debug({ err: err.message }, "redis worker connection error"));
  life.onStop("worker redis", async () => connection.disconnect());

  const sinks = new Map<string, Sink>();
  const deps = { logger, defaultClaimCheckBytes: config.dispatch.claim_check_bytes };
  for (const [name, sinkConfig] of Object.entries(config.sinks))
    sinks.set(name, createSink(name, sinkConfig, deps));
  life.onStop("sinks", async () => void (await Promise.all([...sinks.values()].map((s) => s.close()))));

  const dispatcher = new Dispatcher({ ...core, connection, sinks });
  dispatcher.start();
  life.onStop("dispatcher", () => dispatcher.close(graceMs));
}

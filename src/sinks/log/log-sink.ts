// The log sink: one pino line per hook, for demos and for watching a source before wiring a real destination.
// It is never durable, and it logs what identifies a hook, never its body or header values.
import type { LogSinkConfig } from "./config.ts";
import { ok, type DeliveryResult } from "../../domain/error-class.ts";
import type { Delivery } from "../../domain/hook.ts";
import type { SinkFactory } from "../sink.ts";

/** Build a log sink writing at `config.level` through `deps.logger`. Always `ok` (not durable: see its traits). */
export const createLogSink: SinkFactory<LogSinkConfig> = (name, config, deps) => {
  const logger = deps.logger.child({ sink: name });

  function deliver(delivery: Delivery): Promise<DeliveryResult> {
    const { hook } = delivery;
    logger[config.level](
      {
        hook_id: hook.id,
        source: hook.source,
        tenant: hook.tenant ?? null,
        size: hook.body.length,
        sha256: hook.sha256,
        content_type: hook.contentType ?? null,
        idempotency_key: hook.idempotencyKey,
        attempt: delivery.attempt,
        replay_id: delivery.replayId ?? null,
      },
      "hook received",
    );
    return Promise.resolve(ok);
  }

  return {
    name,
    type: "log",
    inlineMaxBytes: undefined,
    deliver,
    describe: () => undefined,
    close: () => Promise.resolve(),
  };
};

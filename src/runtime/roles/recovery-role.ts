// The `recovery` role: the recovery scheduler (reconcile and trim, DLQ thresholds) and the replay runner.
import { RecoveryRunner, type RecoveryRunnerOptions } from "../../recovery/recovery-runner.ts";
import { ReplayRunner } from "../../recovery/replay-runner.ts";
import { checkDlqThresholds } from "../../recovery/dlq-threshold.ts";
import { DlqSizes } from "../../store/dlq-sizes.ts";
import { closeRedis, createWorkerRedis } from "../redis.ts";
import type { Core } from "./core.ts";

export async function startRecoveryRole(
  core: Core,
  opts: { recovery?: RecoveryRunnerOptions; graceMs?: number },
): Promise<void> {
  const { config, logger } = core;
  const life = core.life.role("recovery");
  const connection = createWorkerRedis(config.redis, "switchyard-recovery");
  connection.on("error", (err: Error) =>
    logger.debug({ err: err.message }, "redis recovery connection error"),
  );
  life.onStop("recovery redis", () => closeRedis(connection));

  const sizes = new DlqSizes(core.redis, core.keys, core.operational.outbox);
  const dlqThresholds = () =>
    checkDlqThresholds({ config: config.operational, sizes, endpoints: core.endpoints });
  const recovery = new RecoveryRunner({ ...core, connection, dlqThresholds }, opts.recovery);
  await recovery.start();
  life.onStop("recovery", () => recovery.close());

  const replayConnection = createWorkerRedis(config.redis, "switchyard-replay");
  replayConnection.on("error", (err: Error) =>
    logger.debug({ err: err.message }, "redis replay connection error"),
  );
  life.onStop("replay redis", () => closeRedis(replayConnection));
  const replayRunner = new ReplayRunner({ ...core, connection: replayConnection });
  replayRunner.start();
  life.onStop("replay runner", () => replayRunner.close(opts.graceMs));
}

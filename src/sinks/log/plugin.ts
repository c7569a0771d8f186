// The `log` sink type: one log line per hook. Not durable (a source delivering only here must say
// allow_non_durable), publishes nowhere a consumer reads, no claim check.
import type { SinkPlugin } from "../plugin.ts";
import { type LogSinkConfig, logSinkSchema } from "./config.ts";
import { createLogSink } from "./log-sink.ts";

export const logSink: SinkPlugin<LogSinkConfig> = {
  type: "log",
  schema: logSinkSchema,
  traits: { protocol: undefined, durable: false, claimCheck: false },
  create: createLogSink,
};

// Routes kafkajs's own log lines into the process logger. kafkajs is chatty: it logs every failed
// request at `error`, although the sink hands that same failure to dispatch, which logs the attempt's
// outcome with the hook's context. So only kafkajs warn/error lines pass, both at `warn`, with a few
// safe fields (no request payloads, no SASL settings).
import { logLevel, type logCreator } from "kafkajs";
import type { Logger } from "../../observability/logger.ts";

/** Fields of a kafkajs log entry worth keeping; anything else may be large or sensitive. */
const KEPT_FIELDS = ["broker", "clientId", "topic", "retryCount", "retryTime", "error", "correlationId"];

/** Known, expected warnings that the sink's own settings cause on purpose. */
const EXPECTED = [
  // Dispatch does the retrying, so the producer's retries are kept low on purpose.
  "Limiting retries for the idempotent producer may invalidate EoS guarantees",
];

/** The kafkajs level to configure together with `kafkaLogCreator` (kafkajs filters before calling it). */
export const KAFKA_LOG_LEVEL = logLevel.WARN;

/** A kafkajs `logCreator` writing to `logger` as the sink named `sink`. */
export function kafkaLogCreator(logger: Logger, sink: string): logCreator {
  return () => (entry) => {
    const { message } = entry.log;
    const fields: Record<string, unknown> = { sink, kafka_namespace: entry.namespace };
    for (const k of KEPT_FIELDS) if (entry.log[k] !== undefined) fields[k] = entry.log[k];
    if (EXPECTED.includes(message)) logger.debug(fields, `kafkajs: ${message}`);
    else logger.warn(fields, `kafkajs: ${message}`);
  };
}

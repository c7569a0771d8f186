// How long one delivery attempt may run at most, in one place: the delivery code enforces these
// bounds and the boot-time warnings compare the BullMQ lock against them.
import type { Config } from "./schema.ts";

/** An outbound request ends `timeout_ms` after its last sign of life; this much more bounds its end. */
const OUTBOUND_END_MS = 1000;

/** Every inbound attempt, whatever the sink: `dispatch.attempt_timeout_ms`. */
export function inboundAttemptMs(config: Pick<Config, "dispatch">): number {
  return config.dispatch.attempt_timeout_ms;
}

/** One attempt at an outbound endpoint. */
export function outboundAttemptMs(config: Pick<Config, "outbound">): number {
  return config.outbound.timeout_ms + OUTBOUND_END_MS;
}

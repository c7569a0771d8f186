// Cross-field checks that do not stop boot but name a combination that will hurt in production: the
// boot logs them and `switchyard check-config` prints them. Refusals (a retention shorter than a
// retry, an unknown sink) are the schema's; what is only risky is said here, with the key to change.
import { inboundAttemptMs, outboundAttemptMs } from "./attempt-bounds.ts";
import type { Config } from "./schema.ts";

export interface ConfigWarning {
  /** The key to change. */
  readonly path: string;
  readonly message: string;
}

/** The roles a process runs, as far as the warnings care. */
export interface ProcessRoles {
  readonly api: boolean;
  readonly dispatch: boolean;
}

/** Sink types that hand consumers a claim URL instead of a large body (the queue sinks). */
const CLAIM_CHECK_TYPES: ReadonlySet<string> = new Set(["amqp", "kafka"]);

const list = (names: readonly string[]): string => names.join(", ");

/**
 * A job's BullMQ lock (`dispatch.lock_ms`) is renewed while its attempt runs. A worker cut off from
 * Redis but not from the sink stops renewing: once the lock lapses another worker takes the job and
 * sends it again while the first attempt may still be running, so the receiver gets it twice. An
 * attempt that cannot outlast the lock cannot overlap its successor.
 */
function lockShorterThanAttempts(config: Config): ConfigWarning[] {
  const lockMs = config.dispatch.lock_ms;
  const out: ConfigWarning[] = [];
  const durable = Object.entries(config.sinks)
    .filter(([, sink]) => sink.type !== "log")
    .map(([name]) => name);
  const inbound = inboundAttemptMs(config);
  if (durable.length > 0 && lockMs < inbound) {
    out.push({
      path: "dispatch.lock_ms",
      message:
        `${lockMs} ms is shorter than an attempt of sink ${list(durable)} may run ` +
        `(dispatch.attempt_timeout_ms ${inbound} ms): a worker that loses Redis for longer than the lock ` +
        `has its job taken over and sent again while its own attempt still runs (a duplicate delivery). ` +
        `Raise dispatch.lock_ms to ${inbound} (a dead worker's jobs then come back after up to 1.5× the lock) ` +
        `or lower dispatch.attempt_timeout_ms.`,
    });
  }
  const outbound = outboundAttemptMs(config);
  if (lockMs < outbound) {
    out.push({
      path: "dispatch.lock_ms",
      message:
        `${lockMs} ms is shorter than an outbound attempt may run (outbound.timeout_ms ` +
        `${config.outbound.timeout_ms} ms + 1 s): a worker that loses Redis for longer than the lock has ` +
        `its endpoint delivery taken over and sent again while its own request still runs. Raise ` +
        `dispatch.lock_ms to ${outbound} or lower outbound.timeout_ms.`,
    });
  }
  return out;
}

/**
 * Claim URLs are built by the process that delivers. Without `http.public_url` it falls back to its
 * own loopback address and port, where a worker-only process serves nothing.
 */
function unusableClaimUrls(config: Config, roles: ProcessRoles): ConfigWarning[] {
  if (!roles.dispatch || roles.api || config.http.public_url !== undefined) return [];
  const routed = new Set(Object.values(config.sources).flatMap((s) => s.sinks));
  const claimSinks = Object.entries(config.sinks)
    .filter(([name, sink]) => routed.has(name) && CLAIM_CHECK_TYPES.has(sink.type))
    .map(([name]) => name);
  if (claimSinks.length === 0) return [];
  return [
    {
      path: "http.public_url",
      message:
        `unset in a process that delivers without the api role: bodies above claim_check_bytes reach ` +
        `sink ${list(claimSinks)} as claim URLs on http://127.0.0.1:${config.http.port}, where nothing ` +
        `serves them, so consumers cannot fetch those bodies. Set http.public_url to the address ` +
        `consumers reach the web processes at.`,
    },
  ];
}

/** Only a delivering process counts attempts, latency and dead letters; without HTTP nobody sees them. */
function unscrapedDeliveryMetrics(config: Config, roles: ProcessRoles): ConfigWarning[] {
  if (!roles.dispatch || roles.api || config.http.metrics_port !== undefined) return [];
  return [
    {
      path: "http.metrics_port",
      message:
        `unset in a process that delivers without the api role: it serves no /metrics, so its delivery ` +
        `attempts, latency, dead letters and breakers are never scraped (dashboards show no deliveries ` +
        `and an alert on "no deliveries" fires). Set http.metrics_port to a port Prometheus can reach.`,
    },
  ];
}

/** Every warning for `config` in a process running `roles`; empty when there is nothing to say. */
export function configWarnings(config: Config, roles: ProcessRoles): ConfigWarning[] {
  return [
    ...(roles.dispatch ? lockShorterThanAttempts(config) : []),
    ...unusableClaimUrls(config, roles),
    ...unscrapedDeliveryMetrics(config, roles),
  ];
}

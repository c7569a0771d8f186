// Cross-field checks that do not stop boot but name a combination that will hurt in production: the
// boot logs them and `switchyard check-config` prints them. Refusals (a retention shorter than a
// retry, an unknown sink) are the schema's; what is only risky is said here, with the key to change.
import { sinkTraits } from "../sinks/registry.ts";
import { dedupAgreement } from "./dedup-agreement.ts";
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

const list = (names: readonly string[]): string => names.join(", ");

/**
 * Claim URLs are built by the process that delivers, for the sink types whose traits say they take the
 * claim check. Without `http.public_url` it falls back to its
 * own loopback address and port, where a worker-only process serves nothing.
 */
function unusableClaimUrls(config: Config, roles: ProcessRoles): ConfigWarning[] {
  if (!roles.dispatch || roles.api || config.http.public_url !== undefined) return [];
  const routed = new Set(Object.values(config.sources).flatMap((s) => s.sinks));
  const claimSinks = Object.entries(config.sinks)
    .filter(([name, sink]) => routed.has(name) && sinkTraits(sink.type)?.claimCheck === true)
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

/**
 * A source whose scheme signs only the body, deduplicated on a header: whoever holds one of its requests
 * (a sink consumer, a proxy log) can re-send the signed body under a new header value and have it
 * accepted again. The API role is the one that ingests.
 */
function unsignedDedupHeaders(config: Config, roles: ProcessRoles): ConfigWarning[] {
  if (!roles.api) return [];
  return Object.entries(config.sources).flatMap(([name, src]) => {
    const agreement = dedupAgreement(src.verify, src.dedup);
    if (agreement.kind !== "unsigned_header") return [];
    return [
      {
        path: `sources.${name}.dedup`,
        message:
          `keys on ${agreement.header}, which a ${src.verify.type} signature does not cover: a captured ` +
          `request re-sent with a new ${agreement.header} passes verification ${agreement.window} and is ` +
          `accepted as a new hook. Dedup on what is signed instead: body, or a { json: … } id field.`,
      },
    ];
  });
}

/** Every warning for `config` in a process running `roles`; empty when there is nothing to say. */
export function configWarnings(config: Config, roles: ProcessRoles): ConfigWarning[] {
  return [
    ...unusableClaimUrls(config, roles),
    ...unscrapedDeliveryMetrics(config, roles),
    ...unsignedDedupHeaders(config, roles),
  ];
}

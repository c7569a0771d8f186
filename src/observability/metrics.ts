// Prometheus metrics the README documents, on a registry of our own (not prom-client's global one) so
// several gateways can live in one test process.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { startRuntimeMetrics } from "./runtime-metrics.ts";

export class Metrics {
  readonly registry = new Registry();

  readonly ingestRequests = new Counter({
    name: "switchyard_ingest_requests_total",
    help: "Inbound webhook requests by source and outcome (accepted, duplicate, rejected, ...).",
    labelNames: ["source", "outcome"] as const,
    registers: [this.registry],
  });

  readonly ingestDuration = new Histogram({
    name: "switchyard_ingest_duration_seconds",
    help: "Time from request to answer on the ingest path.",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  readonly verifyFailures = new Counter({
    name: "switchyard_verify_failures_total",
    help: "Signature verification failures by source and scheme.",
    labelNames: ["source", "scheme"] as const,
    registers: [this.registry],
  });

  readonly quarantineRefused = new Counter({
    name: "switchyard_quarantine_refused_total",
    help: "Failed-verification hooks not quarantined, by source and reason (too_large: over quarantine.max_bytes alone).",
    labelNames: ["source", "reason"] as const,
    registers: [this.registry],
  });

  readonly dispatchAttempts = new Counter({
    name: "switchyard_dispatch_attempts_total",
    help: "Delivery attempts by sink and result (ok, permanent, throttled, transient, parked).",
    labelNames: ["sink", "result"] as const,
    registers: [this.registry],
  });

  readonly deadLettered = new Counter({
    name: "switchyard_dispatch_dead_lettered_total",
    help: "Deliveries moved to the DLQ by source, sink and error class.",
    labelNames: ["source", "sink", "error_class"] as const,
    registers: [this.registry],
  });

  readonly configErrors = new Counter({
    name: "switchyard_dispatch_config_errors_total",
    help: "Permanent failures that need an operator's config fix (credentials, missing exchange or topic).",
    labelNames: ["sink"] as const,
    registers: [this.registry],
  });

  readonly breakerState = new Gauge({
    name: "switchyard_breaker_state",
    help: "Circuit breaker state per sink in this process: 0 closed, 1 half-open, 2 open.",
    labelNames: ["sink"] as const,
    registers: [this.registry],
  });

  readonly breakerTransitions = new Counter({
    name: "switchyard_breaker_transitions_total",
    help: "Circuit breaker state changes per sink.",
    labelNames: ["sink", "to"] as const,
    registers: [this.registry],
  });

  readonly deliveryLatency = new Histogram({
    name: "switchyard_delivery_latency_seconds",
    help: "Time from receipt to successful delivery, per sink.",
    labelNames: ["sink"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
    registers: [this.registry],
  });

  readonly queueJobs = new Gauge({
    name: "switchyard_queue_jobs",
    help: "Jobs per queue and state, sampled.",
    labelNames: ["queue", "state"] as const,
    registers: [this.registry],
  });

  readonly recovered = new Counter({
    name: "switchyard_recovery_reenqueued_total",
    help: "Delivery jobs re-created or re-run by recovery (a crash before enqueue, a job removed by hand).",
    labelNames: ["sink"] as const,
    registers: [this.registry],
  });

  readonly fencedWrites = new Counter({
    name: "switchyard_dispatch_fenced_writes_total",
    help: "Outcome writes refused because the writer had lost its lease to another worker.",
    labelNames: ["sink"] as const,
    registers: [this.registry],
  });

  readonly trimmed = new Counter({
    name: "switchyard_recovery_trimmed_total",
    help: "DLQ index members and finished jobs removed once their retention passed.",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });

  // Outbound twins of the dispatch metrics, labelled by tenant (tenantLabel: "-" for none, "_unknown"
  // for a tenant the config does not declare): endpoint ids are unbounded, declared tenants are not.
  readonly outboundEvents = new Counter({
    name: "switchyard_outbound_events_total",
    help: "Events published, by tenant and outcome (accepted, conflict, invalid).",
    labelNames: ["tenant", "outcome"] as const,
    registers: [this.registry],
  });

  readonly outboundDeliveriesCreated = new Counter({
    name: "switchyard_outbound_deliveries_total",
    help: "Delivery rows of published events by tenant and status (created, duplicate, enqueue_failed, endpoint_error).",
    labelNames: ["tenant", "status"] as const,
    registers: [this.registry],
  });

  readonly outboundAttempts = new Counter({
    name: "switchyard_outbound_attempts_total",
    help: "Outbound delivery attempts by tenant and result (ok, permanent, throttled, transient, parked).",
    labelNames: ["tenant", "result"] as const,
    registers: [this.registry],
  });

  readonly outboundDeadLettered = new Counter({
    name: "switchyard_outbound_dead_lettered_total",
    help: "Outbound deliveries moved to the DLQ by tenant and error class.",
    labelNames: ["tenant", "error_class"] as const,
    registers: [this.registry],
  });

  readonly outboundLatency = new Histogram({
    name: "switchyard_outbound_delivery_latency_seconds",
    help: "Time from publish to successful delivery, per tenant.",
    labelNames: ["tenant"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
    registers: [this.registry],
  });

  readonly outboundFencedWrites = new Counter({
    name: "switchyard_outbound_fenced_writes_total",
    help: "Outbound outcome writes refused because the writer had lost its lease.",
    registers: [this.registry],
  });

  readonly outboundEndpointsDisabled = new Counter({
    name: "switchyard_outbound_endpoints_disabled_total",
    help: "Endpoints disabled by delivery (a 410, or failing continuously), by tenant.",
    labelNames: ["tenant"] as const,
    registers: [this.registry],
  });

  readonly operationalEvents = new Counter({
    name: "switchyard_operational_events_total",
    help: "Operational facts (switchyard.* events) drained, by type and outcome: published, suppressed (over the per-target budget) or failed.",
    labelNames: ["type", "outcome"] as const,
    registers: [this.registry],
  });

  readonly logLinesDropped = new Counter({
    name: "switchyard_log_lines_dropped_total",
    help: "Log lines dropped because stdout was read more slowly than the process logged (its buffer full).",
    registers: [this.registry],
  });

  /** Stops the event-loop and GC sampling (runtime-metrics.ts), when on. */
  readonly stopRuntimeMetrics: () => void = () => undefined;

  /** Tenants the config declares: the only tenant names that become label values. */
  private declaredTenants: ReadonlySet<string> = new Set();

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    // prom-client's names already start with `process_` or `nodejs_`: the prefix adds only ours.
    if (opts.defaultMetrics) {
      collectDefaultMetrics({ register: this.registry, prefix: "switchyard_" });
      this.stopRuntimeMetrics = startRuntimeMetrics(this.registry);
    }
  }

  /** Let these tenants (from the config, so a bounded set) be label values. */
  declareTenants(tenants: Iterable<string>): void {
    this.declaredTenants = new Set(tenants);
  }

  /**
   * The `tenant` label for `tenant`: `-` for none, the name when the config declares it, else
   * `_unknown`. Event bodies and endpoints name tenants freely; labels must not grow with them.
   */
  tenantLabel(tenant: string | undefined): string {
    if (tenant === undefined) return "-";
    return this.declaredTenants.has(tenant) ? tenant : "_unknown";
  }
}

// What the operational events tests share: a receiver for an operational endpoint whose requests are
// verified with the `standardwebhooks` package and read back as events (id, type, data), and a
// subscription helper that registers such an endpoint through the admin API.
import { Webhook } from "standardwebhooks";
import type { ReceivedRequest, Receiver } from "./receiver.ts";
import { createEndpoint, receiver } from "./outbound.ts";
import type { TestGateway } from "./test-gateway.ts";

/** One operational event as a receiver got it, after its signature was verified. */
export interface ReceivedEvent {
  /** `webhook-id`: the event id. */
  readonly id: string;
  readonly type: string;
  readonly timestamp: string;
  readonly data: Record<string, unknown>;
}

/** An endpoint subscribed to operational events, with its receiver and secret. */
export interface OpsEndpoint {
  readonly id: string;
  readonly secret: string;
  readonly rx: Receiver;
  /** Every request verified with standardwebhooks (throws on a bad signature), in arrival order. */
  events(): ReceivedEvent[];
  /** The verified events of `type`. */
  of(type: string): ReceivedEvent[];
}

function verified(req: ReceivedRequest, secret: string): ReceivedEvent {
  const headers = {
    "webhook-id": String(req.headers["webhook-id"]),
    "webhook-timestamp": String(req.headers["webhook-timestamp"]),
    "webhook-signature": String(req.headers["webhook-signature"]),
  };
  const body = new Webhook(secret).verify(req.body.toString("utf8"), headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
  return { id: headers["webhook-id"], type: body.type, timestamp: body.timestamp, data: body.data };
}

/**
 * A receiver answering 200 (or as scripted) and an endpoint on it subscribed to `patterns` (default
 * `switchyard.*`), in `tenant`'s scope when given.
 */
export async function opsEndpoint(
  gw: TestGateway,
  opts: { patterns?: string[]; tenant?: string; fallback?: number } = {},
): Promise<OpsEndpoint> {
  const rx = await receiver({ fallback: opts.fallback ?? 200 });
  const created = await createEndpoint(gw, {
    url: `${rx.url}/ops`,
    event_types: opts.patterns ?? ["switchyard.*"],
    ...(opts.tenant !== undefined ? { tenant: opts.tenant } : {}),
  });
  const events = (): ReceivedEvent[] =>
    rx.requests.filter((r) => r.answered || r.method === "POST").map((r) => verified(r, created.secret));
  return {
    id: created.id,
    secret: created.secret,
    rx,
    events,
    of: (type) => events().filter((e) => e.type === type),
  };
}

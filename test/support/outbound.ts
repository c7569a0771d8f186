// What the outbound fanout tests share: a gateway config with the SSRF guard off (their receivers
// listen on loopback), gateways, receivers and worker processes torn down after each test, endpoints
// made and events published through the admin API, and the rows an event fanned out to, by endpoint.
import { afterEach } from "vitest";
import type { Config } from "../../src/config/schema.ts";
import type { GatewayOptions } from "../../src/runtime/gateway.ts";
import { admin } from "../integration/admin-fixtures.ts";
import { type Receiver, type Reply, startReceiver } from "./receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "./test-gateway.ts";
import { killWorkerProcesses } from "./worker-process.ts";

const gateways: TestGateway[] = [];
const receivers: Receiver[] = [];

/** Register the `afterEach` that stops what `gateway`, `receiver` and startWorkerProcess started. */
export function useOutboundTeardown(): void {
  afterEach(async () => {
    await killWorkerProcesses();
    for (const gw of gateways.splice(0).reverse()) await gw.stop();
    for (const rx of receivers.splice(0)) await rx.close();
  });
}

/** A test gateway, stopped (its keys removed) after the test. */
export async function gateway(config: Config, opts?: GatewayOptions): Promise<TestGateway> {
  const gw = await startTestGateway(config, opts);
  gateways.push(gw);
  return gw;
}

/** A receiver, closed after the test. */
export async function receiver(opts: { script?: Reply[]; fallback?: Reply } = {}): Promise<Receiver> {
  const rx = await startReceiver(opts);
  receivers.push(rx);
  return rx;
}

/** A test config for outbound work: `outbound` merged over the SSRF guard off, plus `extra` top-level keys. */
export function outboundConfig(
  outbound: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Config {
  return testConfig({
    outbound: { allow_private: true, ...outbound },
    sinks: { log: { type: "log" } },
    sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    ...extra,
  });
}

export interface CreatedEndpoint {
  readonly id: string;
  readonly secret: string;
  readonly version: number;
}

/** POST /v1/endpoints; fails the test unless it answered 201. */
export async function createEndpoint(
  gw: TestGateway,
  body: Record<string, unknown>,
): Promise<CreatedEndpoint> {
  const res = await admin(gw, "POST", "/v1/endpoints", { body });
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as CreatedEndpoint;
}

export interface PublishAnswer {
  readonly event_id: string;
  readonly results: readonly { endpoint_id: string; status: string; error?: string }[];
}

/** POST /v1/events; fails the test unless it answered 202. */
export async function publish(gw: TestGateway, body: Record<string, unknown>): Promise<PublishAnswer> {
  const res = await admin(gw, "POST", "/v1/events", { body });
  if (res.status !== 202) throw new Error(`event not published: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as PublishAnswer;
}

/** A delivery row as GET /v1/events/:id/deliveries shows it. */
export interface DeliveryView {
  readonly endpoint_id: string;
  readonly delivery_id: string;
  readonly state: string;
  readonly attempts: number;
  readonly last_status_code?: number;
  readonly last_error?: string;
  readonly error_class?: string;
}

/** The event's rows, by endpoint id. */
export async function deliveriesOf(gw: TestGateway, eventId: string): Promise<Record<string, DeliveryView>> {
  const res = await admin(gw, "GET", `/v1/events/${eventId}/deliveries`);
  if (res.status !== 200) throw new Error(`no deliveries of ${eventId}: ${res.status}`);
  return Object.fromEntries((res.json.data as DeliveryView[]).map((r) => [r.endpoint_id, r]));
}

/** Wait until the event's row to `endpointId` is in `state`; that row. */
export function waitForDelivery(
  gw: TestGateway,
  eventId: string,
  endpointId: string,
  state: string,
  timeoutMs = 10_000,
): Promise<DeliveryView> {
  return eventually(
    async () => {
      const row = (await deliveriesOf(gw, eventId))[endpointId];
      return row?.state === state ? row : undefined;
    },
    timeoutMs,
    `${eventId} → ${endpointId} to be ${state}`,
  );
}

/** GET /v1/endpoints/:id, as the API shows it (no secret). */
export async function endpointView(gw: TestGateway, id: string): Promise<Record<string, unknown>> {
  const res = await admin(gw, "GET", `/v1/endpoints/${id}`);
  if (res.status !== 200) throw new Error(`no endpoint ${id}: ${res.status}`);
  return res.json as Record<string, unknown>;
}

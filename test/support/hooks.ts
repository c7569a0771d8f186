// Small helpers for tests that send hooks through a running test gateway and look at what became of them.
import type { SinkDeliveryState } from "../../src/domain/delivery-state.ts";
import type { TestGateway } from "./test-gateway.ts";
import { eventually } from "./test-gateway.ts";

/** POST a hook and return its id; fails the test unless it was accepted. */
export async function sendHook(
  gw: TestGateway,
  source: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${gw.url}/webhooks/${source}`, { method: "POST", body, headers });
  const json = (await res.json()) as { id?: string };
  if (res.status !== 202 || !json.id)
    throw new Error(`hook not accepted: ${res.status} ${JSON.stringify(json)}`);
  return json.id;
}

export async function sinkState(
  gw: TestGateway,
  hookId: string,
  sink: string,
): Promise<SinkDeliveryState | undefined> {
  const raw = await gw.redis.hget(`${gw.gateway.keys.base}:hook:${hookId}`, `s:${sink}`);
  return raw === null ? undefined : (JSON.parse(raw) as SinkDeliveryState);
}

/** Wait until the sink's state of the hook is `state`, and return it. */
export function waitForState(
  gw: TestGateway,
  hookId: string,
  sink: string,
  state: SinkDeliveryState["state"],
  timeoutMs = 10_000,
): Promise<SinkDeliveryState> {
  return eventually(
    async () => {
      const s = await sinkState(gw, hookId, sink);
      return s?.state === state ? s : undefined;
    },
    timeoutMs,
    `${hookId} → ${sink} to be ${state}`,
  );
}

/** The value of a counter or gauge sample with exactly these labels (0 if absent). */
export async function metricValue(
  gw: TestGateway,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = gw.metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  const data = await metric.get();
  const sample = data.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return sample?.value ?? 0;
}

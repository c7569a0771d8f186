// An outbound attempt gives its concurrency slot back (and is counted) in one call once the answer is
// in. That call runs beside the runner's record of the outcome rather than before it (one round trip
// less per attempt), but the attempt is not settled, so its job not handed back to BullMQ for a retry,
// until the slot is free: a retry must never find its own previous attempt still holding a slot.
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DeliveryJob } from "../../src/delivery/attempt-runner.ts";
import { endpointTarget } from "../../src/delivery/endpoint-target.ts";
import type { Endpoint } from "../../src/domain/endpoint.ts";
import { Keys } from "../../src/store/keys.ts";
import { testConfig } from "../support/test-gateway.ts";

let server: Server;
let url = "";
const agent = new Agent();
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
});
afterAll(async () => {
  await agent.close();
  await new Promise((r) => server.close(r));
});

it("answers before the slot's release returns, and settles only after it", async () => {
  const endpoint: Endpoint = {
    id: "ep_01kbqz5w3m8h2x7c4v9n6r1t0a" as Endpoint["id"],
    url,
    event_types: ["order.*"],
    tenant: undefined,
    headers: {},
    rate_limit_per_s: undefined,
    payload_format: "standard",
    disabled: false,
    disabled_reason: undefined,
    disabled_at: undefined,
    description: undefined,
    version: 1,
    created_at: 1,
    updated_at: 1,
    failing_since: undefined,
    secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}`,
    previous_secrets: [],
  };
  let release: (ended: boolean) => void = () => undefined;
  const ends: string[] = [];
  const target = endpointTarget({
    config: testConfig({ sinks: {}, sources: {}, outbound: { allow_private: true } }),
    keys: new Keys("slot-release-test"),
    endpoints: {
      get: async () => endpoint,
      disableIfVersion: async () => false,
      markFailing: async () => undefined,
      markHealthy: async () => undefined,
    },
    breaker: {
      gate: async () => ({ pass: true, probe: false }),
      knownOpen: () => false,
      record: async () => undefined,
    } as unknown as Parameters<typeof endpointTarget>[0]["breaker"],
    inflight: {
      acquire: async () => ({ ok: true }),
      release: async () => undefined,
    } as unknown as Parameters<typeof endpointTarget>[0]["inflight"],
    rate: {} as Parameters<typeof endpointTarget>[0]["rate"],
    stats: {
      endAttempt: (id: string, holder: string) => {
        ends.push(`${id}/${holder}`);
        return new Promise<boolean>((r) => (release = r));
      },
    },
    dispatcher: agent,
  });
  const job = { id: "dl_1", data: { p: "ev_1", e: endpoint.id } } as unknown as DeliveryJob;
  const admission = await target.admit(job);
  const prepared = await target.prepare(job, {
    parent: [Buffer.from(JSON.stringify({ type: "order.paid", created_at: 1 })), Buffer.from("{}")],
  } as unknown as Parameters<typeof target.prepare>[1]);
  if (typeof prepared === "string") throw new Error(prepared);

  const noLease = { track: () => () => undefined };
  const result = await target.send(prepared, undefined as never, admission, undefined, noLease);
  expect(result.ok).toBe(true);
  expect(ends).toEqual([`${endpoint.id}/dl_1`]); // under way, not yet returned

  let settled = false;
  const settling = target.settled!(prepared, result, true).then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 50));
  expect(settled).toBe(false);
  release(true);
  await settling;
  expect(settled).toBe(true);
});

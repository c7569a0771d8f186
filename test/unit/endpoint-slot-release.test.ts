// An outbound endpoint's concurrency slot, around one attempt. Admission asks for the endpoint, its
// breaker and a slot at once (the slot only if the breaker passes), so a slot taken for an endpoint
// that turns out deleted or disabled is given back. Once the answer is in, the slot is given back (and the attempt
// counted) beside the runner's record of the outcome rather than before it, but the attempt is not
// settled, so its job not handed back to BullMQ for a retry, until the slot is free: a retry must never
// find its own previous attempt still holding a slot.
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DeliveryTicket } from "../../src/delivery/delivery-ticket.ts";
import { endpointTarget } from "../../src/delivery/endpoint-target.ts";
import type { Endpoint } from "../../src/domain/endpoint.ts";
import { Keys } from "../../src/store/keys.ts";
import { endpointFixture } from "../support/endpoint-fixture.ts";
import { testConfig } from "../support/test-gateway.ts";

type Deps = Parameters<typeof endpointTarget>[0];

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

const endpointOf = (patch: Partial<Endpoint> = {}): Endpoint =>
  endpointFixture({ url, secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}`, ...patch });

/** A target over fakes; `slots` logs the slot calls, the breaker passes unless `open`. */
function targetOf(opts: { endpoint?: Endpoint; open?: boolean; endAttempt?: Deps["stats"]["endAttempt"] }) {
  const slots: string[] = [];
  const target = endpointTarget({
    config: testConfig({ sinks: {}, sources: {}, outbound: { allow_private: true } }),
    keys: new Keys("slot-release-test"),
    endpoints: {
      get: async () => opts.endpoint,
      disableIfVersion: async () => false,
      markFailing: async () => undefined,
      markHealthy: async () => undefined,
    },
    breaker: {
      // As SharedBreaker.gateWith: the rider's call (the slot) is made only when the gate passes.
      gateWith: async (_id: string, rider: { alone(): Promise<unknown> }) =>
        opts.open
          ? { gate: { pass: false, parkUntil: 1 }, ride: undefined }
          : { gate: { pass: true, probe: false }, ride: await rider.alone() },
      record: async () => undefined,
    } as unknown as Deps["breaker"],
    inflight: {
      acquireCall: (id: string, holder: string) => ({ keys: [id], args: [holder] }),
      acquireBy: async (call: { keys: string[]; args: string[] }) => (
        slots.push(`acquire ${call.keys[0]}/${call.args[0]}`),
        { ok: true }
      ),
      acquire: async (id: string, holder: string) => (slots.push(`acquire ${id}/${holder}`), { ok: true }),
      release: async (id: string, holder: string) => (slots.push(`release ${id}/${holder}`), true),
    } as unknown as Deps["inflight"],
    rate: {} as Deps["rate"],
    stats: { endAttempt: opts.endAttempt ?? (async () => true) },
    dispatcher: agent,
  });
  return { target, slots };
}

const job = (e: string) => ({ id: "dl_1", data: { p: "ev_1", e } }) as unknown as DeliveryTicket;

it("answers before the slot's release returns, and settles only after it", async () => {
  const endpoint = endpointOf();
  let release: (ended: boolean) => void = () => undefined;
  const ends: string[] = [];
  const { target } = targetOf({
    endpoint,
    endAttempt: (id, holder) => {
      ends.push(`${id}/${holder}`);
      return new Promise<boolean>((r) => (release = r));
    },
  });
  const admission = await target.admit(job(endpoint.id));
  const prepared = await target.prepare(job(endpoint.id), {
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

it("gives the slot taken at admission back when the endpoint is disabled, and takes none behind an open breaker", async () => {
  const id = endpointOf().id;
  const disabled = targetOf({ endpoint: endpointOf({ disabled: true }) });
  expect(await disabled.target.admit(job(id))).toMatchObject({ pass: true });
  expect(disabled.slots).toEqual([`acquire ${id}/dl_1`, `release ${id}/dl_1`]);

  const open = targetOf({ endpoint: endpointOf(), open: true });
  expect(await open.target.admit(job(id))).toMatchObject({ pass: false });
  expect(open.slots).toEqual([]);

  const healthy = targetOf({ endpoint: endpointOf() });
  expect(await healthy.target.admit(job(id))).toMatchObject({ pass: true });
  expect(healthy.slots).toEqual([`acquire ${id}/dl_1`]);
});

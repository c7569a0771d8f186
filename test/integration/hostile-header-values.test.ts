// Header values the gateway builds from data: the idempotency key carries the dedup value a sender
// chose (a JSON id), which may hold `€`, CJK or CR/LF. undici refused such a header, the attempt was
// classified permanent + config, and the hook was dead on its first attempt (and on every replay).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

const HOSTILE_IDS = [
  "€uro-1",
  "注文-東京",
  "line\r\nx-injected: 1",
  "50%off",
  " padded ",
  "tab\there",
  "nul\u0000",
];

let gw: TestGateway;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver({ script: [], fallback: 200 });
  gw = await startTestGateway(
    testConfig({
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: { s: { verify: { type: "none" }, dedup: { json: "id" }, sinks: ["out"], tenants: ["acme"] } },
    }),
    { roles: ["api", "dispatch"] },
  );
});
afterAll(async () => {
  await gw?.stop();
  await rx?.close();
});

interface HookView {
  readonly idempotency_key: string;
  readonly sinks: Record<string, { state: string; last_error?: string }>;
}

async function hookView(id: string): Promise<HookView> {
  const res = await fetch(`${gw.url}/v1/hooks/${id}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return (await res.json()) as HookView;
}

describe("hostile_header_values", () => {
  it("delivers hooks whose idempotency key holds non-ASCII or CR/LF, percent-encoded in the header", async () => {
    const ids: string[] = [];
    for (const dedup of HOSTILE_IDS) {
      const res = await fetch(`${gw.url}/webhooks/acme/s`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: dedup }),
      });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { id: string }).id);
    }
    for (const [i, id] of ids.entries()) {
      const view = await eventually(
        async () => {
          const v = await hookView(id);
          const state = v.sinks.out?.state;
          return state === "delivered" || state === "dead" ? v : undefined;
        },
        15_000,
        `a final state for ${JSON.stringify(HOSTILE_IDS[i])}`,
      );
      expect(view.sinks.out, JSON.stringify(HOSTILE_IDS[i])).toMatchObject({ state: "delivered" });
    }
    const seen = rx.requests.map((r) => r.headers["x-switchyard-idempotency-key"]);
    for (const dedup of HOSTILE_IDS) {
      const key = `acme:s:j:${dedup}`;
      const sent = seen.find((v) => typeof v === "string" && decodeURIComponent(v) === key);
      expect(sent, `the header for ${JSON.stringify(dedup)} among ${JSON.stringify(seen)}`).toBeDefined();
      expect(sent).toMatch(/^[\x21-\x7e]+$/);
    }
    for (const r of rx.requests) {
      expect(r.headers["x-injected"]).toBeUndefined();
      expect(r.headers["x-switchyard-tenant"]).toBe("acme");
      expect(r.headers["x-switchyard-source"]).toBe("s");
    }
  });
});

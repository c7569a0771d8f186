// What a tenant-bound token could learn that is not its own, on a running gateway (real port): how the
// gateway's internal names resolve (SSRF refusals), another tenant's dead-letter counts (a replay's
// total_estimate), whether another tenant's hook exists (its body was loaded before the tenant check),
// and a claim signature accepted under several spellings.
import { createHmac } from "node:crypto";
import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HookStore } from "../../src/store/hook-store.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const A_TOKEN = "tenant-a-token-0123456789";
const B_TOKEN = "tenant-b-token-0123456789";
const CLAIM_KEY = "claim-signing-key-for-tests-0123456789";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await gw?.stop();
  gw = undefined;
  await rx?.close();
  rx = undefined;
});

/** A call to the gateway's socket with a bearer token. */
async function call(
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${gw!.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text.startsWith("{") ? JSON.parse(text) : text };
}

async function post(tenant: string, body: string): Promise<string> {
  const res = await fetch(`${gw!.url}/webhooks/${tenant}/src`, { method: "POST", body });
  const json = (await res.json()) as { id: string };
  expect(res.status).toBe(202);
  return json.id;
}

/** A gateway whose `src` source takes tenants a and b, each sink refusing hooks for good (400). */
async function twoTenants(roles?: ("api" | "dispatch" | "recovery")[]): Promise<TestGateway> {
  rx = await startReceiver({ fallback: 400 });
  gw = await startTestGateway(
    testConfig({
      http: { port: 0, host: "127.0.0.1", claim_signing_key: CLAIM_KEY },
      admin: {
        tokens: [
          { token: A_TOKEN, tenant: "a" },
          { token: B_TOKEN, tenant: "b" },
        ],
      },
      outbound: { allow_private: false, timeout_ms: 2000 },
      sinks: {
        out_a: { type: "http", url: `${rx.url}/a` },
        out_b: { type: "http", url: `${rx.url}/b` },
      },
      sources: { src: { tenants: ["a", "b"], verify: { type: "none" }, sinks: ["out_a", "out_b"] } },
    }),
    {
      ...(roles ? { roles } : {}),
      // Every name resolves to loopback, the internal address a tenant must not learn about.
      outboundLookup: async (): Promise<LookupAddress[]> => [{ address: "127.0.0.1", family: 4 }],
    },
  );
  return gw;
}

describe("ssrf refusals tell tenants nothing about name resolution", () => {
  it("ssrf-refusal-names-no-address: a tenant's refused endpoint URL says neither the address nor the range", async () => {
    await twoTenants(["api"]);
    const res = await call("POST", "/v1/endpoints", A_TOKEN, {
      url: "http://vm.internal/hook",
      event_types: ["*"],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
    expect(res.json.error.message).toMatch(/^url: refused: /);
    expect(res.json.error.message).not.toMatch(/127\.0\.0\.1|loopback|resolves to 127/);
    // A literal the tenant typed may still be explained: it says nothing about names.
    const literal = await call("POST", "/v1/endpoints", A_TOKEN, {
      url: "http://10.1.2.3/",
      event_types: ["*"],
    });
    expect(literal.json.error.message).toMatch(/10\.1\.2\.3 is in the private range/);
  });
});

describe("a replay's estimate counts the caller's tenant only", () => {
  it("replay-estimate-counts-other-tenants: filtered by another tenant's hook ids or sink, it counts only its own", async () => {
    await twoTenants();
    const bHook = await post("b", JSON.stringify({ n: "b1" }));
    const aHooks = [
      await post("a", JSON.stringify({ n: "a1" })),
      await post("a", JSON.stringify({ n: "a2" })),
    ];
    await eventually(
      async () => {
        const d = await call("GET", "/v1/dlq?limit=100", A_TOKEN);
        const e = await call("GET", "/v1/dlq?limit=100", B_TOKEN);
        return d.json.data?.length === 4 && e.json.data?.length === 2;
      },
      20_000,
      "six dead deliveries",
    );
    // b's hook, named by id: it has two dead deliveries, none of them a's business.
    const byId = await call("POST", "/v1/replays", A_TOKEN, { filter: { ids: [bHook] }, rate_per_s: 1 });
    expect(byId.status).toBe(202);
    expect((await call("GET", `/v1/replays/${byId.json.id}`, A_TOKEN)).json.total_estimate).toBe(0);
    // Filtered by a sink, the estimate is a's own dead deliveries (its tenant index), never a count
    // taken from an index other tenants' entries are in.
    const bySink = await call("POST", "/v1/replays", A_TOKEN, {
      filter: { sink: "out_b", since: new Date(0).toISOString() },
      rate_per_s: 1,
    });
    expect(bySink.status).toBe(202);
    const estimate = (await call("GET", `/v1/replays/${bySink.json.id}`, A_TOKEN)).json.total_estimate;
    expect(estimate).toBe(aHooks.length * 2);
  });
});

describe("reads check the tenant before loading a record", () => {
  it("tenant-check-loads-body-first: another tenant's hook or claim is answered from its tenant alone, like a missing one", async () => {
    await twoTenants(["api"]);
    const bHook = await post("b", JSON.stringify({ n: "secret body of b" }));
    const missing = `hk_${"0".repeat(25)}${bHook.slice(-1)}`;
    // The gateway runs in this process: count the reads of a whole record (headers, body) it makes.
    const loads = [vi.spyOn(HookStore.prototype, "load"), vi.spyOn(HookStore.prototype, "record")];
    cleanups.push(async () => loads.forEach((spy) => spy.mockRestore()));
    const wholeReads = async (path: string): Promise<number> => {
      loads.forEach((spy) => spy.mockClear());
      expect((await call("GET", path, A_TOKEN)).status).toBe(404);
      return loads.reduce((n, spy) => n + spy.mock.calls.length, 0);
    };
    for (const kind of ["hooks", "claims"]) {
      // Another tenant's record is never loaded: its 404 costs the one short read a missing one does.
      expect([kind, await wholeReads(`/v1/${kind}/${bHook}`)]).toEqual([kind, 0]);
      expect([kind, await wholeReads(`/v1/${kind}/${missing}`)]).toEqual([kind, 0]);
    }
    // b's own token still reads it in full.
    expect((await call("GET", `/v1/hooks/${bHook}?include=body`, B_TOKEN)).json.body_base64).toBe(
      Buffer.from(JSON.stringify({ n: "secret body of b" })).toString("base64"),
    );
  });
});

describe("claim signatures decode strictly", () => {
  it("claim-signature-lenient-spellings: only the canonical base64url spelling of a signature grants a claim", async () => {
    await twoTenants(["api"]);
    const id = await post("a", JSON.stringify({ n: "claimed" }));
    const exp = String(Math.floor(Date.now() / 1000) + 600);
    const mac = createHmac("sha256", Buffer.from(CLAIM_KEY, "utf8")).update(`${id}.${exp}`).digest();
    const sig = mac.toString("base64url");
    const claim = (s: string) =>
      call("GET", `/v1/claims/${id}?exp=${exp}&sig=${encodeURIComponent(s)}`, null);
    expect((await claim(sig)).status).toBe(200);
    // The last character of 43 carries two unused bits: flipping them spells the same 32 bytes.
    const last = sig.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) + 1] as string;
    const spellings = [
      `${sig}=`,
      sig.replaceAll("-", "+").replaceAll("_", "/") + (sig.includes("-") || sig.includes("_") ? "" : "="),
      `${sig.slice(0, -1)}${sibling}`,
      `${sig.slice(0, 10)}.${sig.slice(10)}`,
      mac.toString("base64"),
    ].filter((s) => s !== sig);
    for (const s of spellings) expect([s, (await claim(s)).status]).toEqual([s, 401]);
  });
});

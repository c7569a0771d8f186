// The JSON dedup scan reads bodies anyone can send: it must only ever see a body whose signature
// verified, so an unsigned flood costs an HMAC and nothing more.
import { createHmac } from "node:crypto";
import { afterEach, expect, it, vi } from "vitest";
import type * as dedupKey from "../../src/ingest/dedup-key.ts";
import { computeDedupKey } from "../../src/ingest/dedup-key.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

vi.mock("../../src/ingest/dedup-key.ts", async (importOriginal) => {
  const real = await importOriginal<typeof dedupKey>();
  return { ...real, computeDedupKey: vi.fn(real.computeDedupKey) };
});

const SECRET = "dedup-after-verify-secret";
let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

it("computes the dedup key only after the signature verified", async () => {
  gw = await startTestGateway(
    testConfig({
      sinks: { a: { type: "http", url: "http://127.0.0.1:9/a" } },
      sources: { gh: { verify: { type: "github", secrets: [SECRET] }, dedup: { json: "id" }, sinks: ["a"] } },
    }),
    { roles: ["api"], listen: false },
  );
  const app = gw.gateway.app!;
  const body = `{"id":"evt_1","nested":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
  const post = (signature: string) =>
    app.request("/webhooks/gh", { method: "POST", body, headers: { "x-hub-signature-256": signature } });

  vi.mocked(computeDedupKey).mockClear();
  expect((await post("sha256=" + "0".repeat(64))).status).toBe(401);
  expect((await post("")).status).toBe(401);
  expect(computeDedupKey).not.toHaveBeenCalled();

  const good = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
  expect((await post(good)).status).toBe(202);
  expect(computeDedupKey).toHaveBeenCalledTimes(1);
});

// One signed message is one hook, however a holder of a captured request dresses it up: a new value in a
// header the signature does not cover (svix-id beside a verified webhook-id), or another listed path
// tenant. On a running gateway (real port), with signatures made by the providers' own libraries.
import { spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const SW_SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const GH_SHARED = "github-shared-secret";
const GH_A = "github-secret-of-a";
const GH_B = "github-secret-of-b";

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${gw!.url}/webhooks/${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });
  return {
    status: res.status,
    json: (await res.json()) as { status?: string; id?: string; error?: { code: string } },
  };
}

const githubSig = (secret: string, body: string): Record<string, string> => ({
  "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
});

async function gateway(sources: Record<string, unknown>): Promise<TestGateway> {
  gw = await startTestGateway(
    testConfig({
      sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
      sources,
    }),
    { roles: ["api"] },
  );
  return gw;
}

describe("dedup keys on the message id the signature covers", () => {
  it("forged-svix-id-accepted-again: a captured Svix request re-sent with a new svix-id is a duplicate", async () => {
    await gateway({
      svix_src: {
        verify: { type: "standard_webhooks", secrets: [SW_SECRET] },
        dedup: "svix",
        sinks: ["out"],
      },
    });
    const body = JSON.stringify({ type: "invoice.paid", n: 1 });
    const id = "msg_2xYzCaptured";
    const now = new Date();
    const signature = new StandardWebhook(SW_SECRET).sign(id, now, body);
    const ts = String(Math.floor(now.getTime() / 1000));
    // Svix sends both header families; only the webhook-* ones are verified here.
    const captured = {
      "webhook-id": id,
      "webhook-timestamp": ts,
      "webhook-signature": signature,
      "svix-id": id,
      "svix-timestamp": ts,
      "svix-signature": signature,
    };
    const first = await post("svix_src", body, captured);
    expect(first.status).toBe(202);
    for (const forged of ["msg_forged_1", "msg_forged_2", "msg_forged_3"]) {
      const again = await post("svix_src", body, { ...captured, "svix-id": forged });
      expect([forged, again.status, again.json]).toEqual([
        forged,
        200,
        { status: "duplicate", id: first.json.id },
      ]);
    }
    // A forged id the signature is then checked over fails verification.
    const onlySvix = { "svix-id": "msg_forged_4", "svix-timestamp": ts, "svix-signature": signature };
    expect((await post("svix_src", body, onlySvix)).status).toBe(401);
  });
});

describe("a preset pair that cannot agree", () => {
  it("stops boot with exit 78, naming the key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sy-dedup-"));
    const file = join(dir, "switchyard.yaml");
    writeFileSync(
      file,
      `sinks: { out: { type: http, url: "http://127.0.0.1:9/in" } }
sources:
  sw: { verify: { type: standard_webhooks, secrets: ["${SW_SECRET}"] }, dedup: github, sinks: [out] }
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
      env: { ...process.env, SWITCHYARD_CONFIG: file },
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(78);
    expect(stderr).toMatch(/sources\.sw\.dedup: keys on x-github-delivery/);
  });
});

describe("one signed message is accepted once across a source's tenants", () => {
  it("signed-hook-filed-under-another-tenant: the same signed bytes under another path tenant are not a new hook", async () => {
    await gateway({
      shared: {
        tenants: ["a", "b"],
        verify: { type: "github", secrets: [GH_SHARED] },
        dedup: "body",
        sinks: ["out"],
      },
    });
    const body = JSON.stringify({ action: "opened", number: 7 });
    const headers = { ...githubSig(GH_SHARED, body), "x-github-delivery": "d-1" };
    const first = await post("b/shared", body, headers);
    expect(first.status).toBe(202);
    const elsewhere = await post("a/shared", body, headers);
    expect([elsewhere.status, elsewhere.json]).toEqual([200, { status: "duplicate", id: first.json.id }]);
    // The same message under its first tenant is the ordinary duplicate it always was.
    expect((await post("b/shared", body, headers)).json).toEqual({ status: "duplicate", id: first.json.id });
  });

  it("per-tenant secrets bind the path tenant: b's signed request does not verify under a", async () => {
    await gateway({
      own: {
        tenants: ["a", "b"],
        verify: { type: "github", secrets_by_tenant: { a: [GH_A], b: [GH_B] } },
        dedup: "body",
        sinks: ["out"],
      },
    });
    const body = JSON.stringify({ action: "opened", number: 8 });
    const forB = githubSig(GH_B, body);
    expect((await post("b/own", body, forB)).status).toBe(202);
    const underA = await post("a/own", body, forB);
    expect([underA.status, underA.json.error?.code]).toEqual([401, "verification_failed"]);
    // Without a path tenant there is no tenant's secret to verify with.
    expect((await post("own", body, forB)).status).toBe(401);
    // The same body signed by a's own secret is a's own message: a hook of its own.
    const forA = await post("a/own", body, githubSig(GH_A, body));
    expect([forA.status, forA.json.status]).toEqual([202, "accepted"]);
  });
});

// The tenant portal in a real headless Chromium: a tenant's developer opens a minted link (used once,
// then gone from the address bar), adds an endpoint pointing at a local receiver and is shown its secret
// once, sees a delivered event (after a failed attempt) and a dead one with their status codes, replays
// the dead one, rotates the secret and sends a test event. Another tenant's endpoint is a 404 and a
// read-only session changes nothing. The page asks for nothing outside the gateway and its CSP refuses
// nothing it needs.
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { signStandardWebhook } from "../../src/domain/signing.ts";
import { admin } from "../integration/admin-fixtures.ts";
import { launchChromium, loopbackOnly } from "../support/chromium.ts";
import { type PortalScene, TENANT, startPortalScene } from "../support/portal-scene.ts";
import { eventually } from "../support/test-gateway.ts";

const ARTIFACTS = "test/artifacts";

let scene: PortalScene | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  await scene?.stop();
});

interface Watched {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Requests the page tried to send off the machine. */
  readonly outside: string[];
  /** Console errors about the content security policy. */
  readonly refused: string[];
}

async function openContext(b: Browser): Promise<Watched> {
  const context = await b.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "UTC" });
  context.setDefaultTimeout(10_000);
  const outside = await loopbackOnly(context);
  const page = await context.newPage();
  const refused: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  page.on("dialog", (d) => void d.accept());
  return { context, page, outside, refused };
}

async function deliveryState(
  s: PortalScene,
  eventId: string,
): Promise<{ state: string; delivery_id: string } | undefined> {
  const res = await admin(s.gw, "GET", `/v1/events/${eventId}/deliveries?tenant=${TENANT}`);
  return res.status === 200 ? (res.json.data[0] as { state: string; delivery_id: string }) : undefined;
}

async function publishAndWait(s: PortalScene, id: string, state: string): Promise<string> {
  const res = await admin(s.gw, "POST", "/v1/events", {
    body: { id, type: "order.paid", tenant: TENANT, payload: { order: id, amount: 4200 } },
  });
  expect(res.status).toBe(202);
  const row = await eventually(
    async () => {
      const r = await deliveryState(s, id);
      return r?.state === state ? r : undefined;
    },
    15_000,
    `${id} to be ${state}`,
  );
  return row.delivery_id;
}

it("opens by magic link, manages an endpoint, shows attempts, replays, and keeps tenants and read-only apart", async () => {
  // Event 1: 503 then delivered; event 2: refused for good (422, dead); then every answer is 200.
  scene = await startPortalScene([
    { status: 503, body: "busy, try later" },
    200,
    { status: 422, body: '{"error":"unknown order"}' },
  ]);
  const s = scene;
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  const { page, outside, refused } = await openContext(browser);

  // The link: its token is used once and taken out of the address bar.
  const link = await s.link();
  await page.goto(link);
  await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
  expect(page.url()).toBe(`${s.gw.url}/portal`);
  const again = await openContext(browser);
  await again.page.goto(link);
  await again.page
    .getByRole("alert")
    .getByText(/already used or has expired/)
    .waitFor();
  expect(again.page.url()).toBe(`${s.gw.url}/portal`);
  await again.context.close();

  // A new endpoint from the catalog's types; its secret is shown once.
  await page.getByRole("link", { name: "Add endpoint" }).click();
  await page.getByLabel("URL").fill(`${s.rx.url}/orders`);
  await page.getByLabel("Description").fill("Orders service");
  await page.getByLabel("order.paid").check();
  await page.getByLabel("Rate limit").fill("50");
  await page.getByLabel("Custom headers").fill("X-Team: payments");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.locator("#secret-panel:not([hidden])").waitFor();
  const secret = (await page.locator("#secret-panel .secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("link", { name: /I have copied it/ }).click();
  await page.getByRole("heading", { name: "Orders service", level: 1 }).waitFor();
  const endpointId = /\/portal\/endpoints\/(ep_\w+)$/.exec(page.url())?.[1] ?? "";
  expect(endpointId).toMatch(/^ep_/);
  expect(await page.content()).not.toContain(secret);
  const made = await admin(s.gw, "GET", `/v1/endpoints/${endpointId}`);
  expect(made.json).toMatchObject({
    tenant: TENANT,
    rate_limit_per_s: 50,
    headers: { "x-team": "payments" },
  });

  // Deliveries: one delivered after a failed attempt, one dead.
  const delivered = await publishAndWait(s, "order-1", "delivered");
  const dead = await publishAndWait(s, "order-2", "dead");
  await page.reload();
  const rows = page.locator("section[aria-labelledby=deliveries-heading] tbody tr");
  await expect.poll(() => rows.count()).toBe(2);
  await page.screenshot({ path: `${ARTIFACTS}/portal-endpoint.png`, fullPage: true });

  await page.getByRole("link", { name: delivered }).click();
  const attempts = page.locator("section[aria-labelledby=attempts-heading] tbody tr");
  await expect.poll(() => attempts.count()).toBe(2);
  expect(await attempts.nth(0).textContent()).toContain("503");
  expect(await attempts.nth(0).textContent()).toContain("busy, try later");
  expect(await attempts.nth(1).textContent()).toContain("200");

  // The dead one: its 422 and why; replayed from the page, it is delivered.
  await page.goto(`${s.gw.url}/portal/deliveries/${dead}`);
  expect(await attempts.nth(0).textContent()).toMatch(/422[\s\S]*permanent[\s\S]*unknown order/);
  await page.screenshot({ path: `${ARTIFACTS}/portal-delivery.png`, fullPage: true });
  await page.getByRole("button", { name: "Replay this delivery" }).click();
  await page.waitForURL(/\/portal\/replays\/rp_/);
  await page.getByText("done", { exact: true }).waitFor({ timeout: 15_000 });
  await eventually(
    async () => (await deliveryState(s, "order-2"))?.state === "delivered",
    15_000,
    "replayed delivery",
  );
  await page.goto(`${s.gw.url}/portal/deliveries/${dead}`);
  await expect.poll(() => attempts.count()).toBe(2);
  expect(await attempts.nth(1).textContent()).toContain("200");

  // Rotate the secret (shown once again), send a test event, disable and enable.
  await page.goto(`${s.gw.url}/portal/endpoints/${endpointId}`);
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.locator("#secret-panel:not([hidden])").waitFor();
  const rotated = (await page.locator("#secret-panel .secret").textContent()) ?? "";
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  const before = s.rx.requests.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await page.getByText("A test event was sent to this endpoint.").waitFor();
  await s.rx.waitForRequests(before + 1);
  const test = s.rx.requests[before]!;
  expect(JSON.parse(test.body.toString("utf8"))).toMatchObject({
    type: "switchyard.test",
    data: { test: true, endpoint_id: endpointId },
  });
  // Signed with the new secret (and, for a day, the old one too).
  const signed = signStandardWebhook({
    id: String(test.headers["webhook-id"]),
    timestampS: Number(test.headers["webhook-timestamp"]),
    body: test.body,
    secrets: [rotated],
  });
  expect(String(test.headers["webhook-signature"]).split(" ")).toContain(signed["webhook-signature"]);
  // Recover every failed delivery since a time: a replay job whose progress the page follows.
  s.rx.script({ status: 422, body: "not yet" });
  await publishAndWait(s, "order-3", "dead");
  await page.reload();
  const since = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16); // the context runs in UTC
  await page.getByLabel("Failed since").fill(since);
  await page.getByRole("button", { name: "Replay every failed delivery since then" }).click();
  await page.waitForURL(/\/portal\/replays\/rp_/);
  await page.getByText("done", { exact: true }).waitFor({ timeout: 15_000 });
  await eventually(
    async () => (await deliveryState(s, "order-3"))?.state === "delivered",
    15_000,
    "recovered",
  );
  await page.screenshot({ path: `${ARTIFACTS}/portal-replay.png`, fullPage: true });
  await page.goto(`${s.gw.url}/portal/endpoints/${endpointId}`);

  // Edit: a new description and rate limit; the custom headers, untouched, stay as they were.
  await page.getByRole("link", { name: "Edit" }).click();
  await page.getByLabel("Description").fill("Orders service (v2)");
  await page.getByLabel("Rate limit").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("heading", { name: "Orders service (v2)", level: 1 }).waitFor();
  const edited = (await admin(s.gw, "GET", `/v1/endpoints/${endpointId}`)).json;
  expect(edited).toMatchObject({ description: "Orders service (v2)", headers: { "x-team": "payments" } });
  expect(edited.rate_limit_per_s).toBeUndefined();

  await page.getByRole("button", { name: "Disable" }).click();
  await page.getByRole("button", { name: "Enable" }).waitFor();
  expect((await admin(s.gw, "GET", `/v1/endpoints/${endpointId}`)).json.disabled).toBe(true);
  await page.getByRole("button", { name: "Enable" }).click();
  await page.getByRole("button", { name: "Disable" }).waitFor();

  // Another tenant's endpoint: a 404, its URL nowhere on the page.
  const foreign = await page.goto(`${s.gw.url}/portal/endpoints/${s.foreignEndpoint}`);
  expect(foreign?.status()).toBe(404);
  expect(await page.content()).not.toContain("/globex");
  const apiAnswer = await page.evaluate(
    async (id) => (await fetch(`/portal/api/v1/endpoints/${id}`)).status,
    s.foreignEndpoint,
  );
  expect(apiAnswer).toBe(404);

  // A read-only session: no controls, and a write sent anyway is refused.
  const ro = await openContext(browser);
  await ro.page.goto(await s.link({ readOnly: true }));
  await ro.page.getByText("read-only", { exact: true }).waitFor();
  expect(await ro.page.getByRole("link", { name: "Add endpoint" }).count()).toBe(0);
  await ro.page.goto(`${s.gw.url}/portal/endpoints/${endpointId}`);
  expect(await ro.page.getByRole("button", { name: "Rotate secret" }).count()).toBe(0);
  const writes = await ro.page.evaluate(async (id) => {
    const send = async (method: string, path: string, body: unknown) =>
      (
        await fetch(path, {
          method,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status;
    return [
      await send("PATCH", `/portal/api/v1/endpoints/${id}`, { disabled: true }),
      await send("POST", `/portal/api/v1/endpoints/${id}/rotate-secret`, {}),
      await send("DELETE", `/portal/api/v1/endpoints/${id}`, {}),
    ];
  }, endpointId);
  expect(writes).toEqual([403, 403, 403]);
  expect((await admin(s.gw, "GET", `/v1/endpoints/${endpointId}`)).json.disabled).toBe(false);

  // Delete, from the page.
  await page.goto(`${s.gw.url}/portal/endpoints/${endpointId}`);
  await page.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL(`${s.gw.url}/portal`);
  expect((await admin(s.gw, "GET", `/v1/endpoints/${endpointId}`)).status).toBe(404);

  expect(outside).toEqual([]);
  expect(ro.outside).toEqual([]);
  expect(refused).toEqual([]);
  expect(ro.refused).toEqual([]);
});

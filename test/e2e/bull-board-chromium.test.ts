// Bull Board in a real headless Chromium: an operator logs in with basic auth (the admin token as
// password), sees every queue, opens a dead-lettered job and retries it, and the job leaves the failed set.
// Retrying the job runs it again, and a job that finds its row dead just completes: the delivery stays
// dead, in the DLQ, until a replay naming it brings it back. That is the BullMQ engine's board: the ledger
// engine's delivery queues are not on it, so its guards (basic auth, no tenant tokens, the page held to
// its own origin, its writes working from its own page) are shown on the replays queue, on either engine.
import { mkdirSync } from "node:fs";
import { Queue } from "bullmq";
import type { Browser, Page } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import { REPLAY_QUEUE } from "../../src/queue/replay-queue.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { launchChromium, loopbackOnly } from "../support/chromium.ts";
import { dlqEntryOf, sendHook, waitForState } from "../support/hooks.ts";
import { admin } from "../integration/admin-fixtures.ts";
import { onLedgerEngine } from "../support/queued.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

const ARTIFACTS = "test/artifacts";
const TENANT_TOKEN = "acme-only-token-0123456789";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  await gw?.stop();
  await rx?.close();
  [browser, gw, rx] = [undefined, undefined, undefined];
});

/** Without credentials the browser is challenged for basic auth; a token bound to one tenant may not see all queues. */
async function expectOnlyAdminsLetIn(chromium: Browser, on: TestGateway): Promise<void> {
  const anonymous = await chromium.newContext();
  await loopbackOnly(anonymous);
  // Headless Chromium has no prompt to show, so the basic-auth challenge ends the navigation.
  await expect((await anonymous.newPage()).goto(`${on.url}/admin/queues`)).rejects.toThrow(
    /ERR_INVALID_AUTH_CREDENTIALS/,
  );
  const denied = await fetch(`${on.url}/admin/queues`);
  expect(denied.status).toBe(401);
  expect(denied.headers.get("www-authenticate")).toBe('Basic realm="switchyard"');
  const tenantOnly = await chromium.newContext({
    httpCredentials: { username: "ops", password: TENANT_TOKEN },
  });
  await loopbackOnly(tenantOnly);
  expect((await (await tenantOnly.newPage()).goto(`${on.url}/admin/queues`))?.status()).toBe(404);
}

/**
 * A page logged in with the admin token. The page must not even try to reach another origin (`outside`:
 * it once fetched web fonts from a CDN), and its content security policy must not refuse anything the
 * board itself needs (`refused`).
 */
async function operatorPage(
  chromium: Browser,
): Promise<{ page: Page; outside: string[]; refused: string[] }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.newContext({
    httpCredentials: { username: "ops", password: ADMIN_TOKEN },
    viewport: { width: 1280, height: 800 },
  });
  const outside = await loopbackOnly(context);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const refused: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  return { page, outside, refused };
}

it("logs in, shows every queue, and retries a failed job from the browser", async () => {
  // The first delivery is refused for good (410 → dead-lettered); the replayed one succeeds.
  rx = await startReceiver({ script: [410], fallback: 200 });
  const config = testConfig({
    // Retrying a delivery's failed job from the board is the BullMQ engine's: the ledger engine keeps no job.
    dispatch: { engine: "bullmq" },
    admin: { tokens: [ADMIN_TOKEN, { token: TENANT_TOKEN, tenant: "acme" }] },
    sinks: { forward: { type: "http", url: `${rx.url}/in` } },
    sources: { src: { verify: { type: "none" }, sinks: ["forward"] } },
  });
  gw = await startTestGateway(config);
  const hookId = (await sendHook(gw, "src", '{"order":42}')) as HookId;
  await waitForState(gw, hookId, "forward", "dead");
  const jobId = sinkDeliveryId(hookId, "forward");
  const queue = new Queue(sinkQueueName("forward"), {
    connection: gw.redis,
    prefix: gw.gateway.keys.queuePrefix(sinkQueueName("forward")),
  });
  // The record says dead just before BullMQ moves the job to the failed set.
  await eventually(async () => (await queue.getJobState(jobId)) === "failed", 5_000, "job to fail");

  browser = await launchChromium();
  await expectOnlyAdminsLetIn(browser, gw);
  const { page, outside, refused } = await operatorPage(browser);
  const overview = await page.goto(`${gw.url}/admin/queues`);
  expect(overview?.status()).toBe(200);
  for (const name of ["sink-forward", "replays", "maintenance"]) {
    await expect
      .poll(() => page.getByText(name, { exact: true }).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
  }
  await page.screenshot({ path: `${ARTIFACTS}/bull-board-overview.png`, fullPage: true });
  expect(outside).toEqual([]);

  // Open the failed job, press its retry button and confirm.
  await page.goto(`${gw.url}/admin/queues/queue/sink-forward?status=failed`);
  // The job's header: its id link and its action buttons.
  const card = page
    .locator("div", { has: page.locator(`a[href*="${jobId}"]`) })
    .filter({ has: page.locator("svg.lucide-refresh-cw") })
    .last();
  await card.waitFor({ timeout: 10_000 });
  await page.getByText("permanent: HTTP 410").first().waitFor({ timeout: 10_000 });
  await page.screenshot({ path: `${ARTIFACTS}/bull-board-failed-job.png`, fullPage: true });
  await card.locator("button:has(svg.lucide-refresh-cw)").click();
  // The confirmation names the action, so this was the job's retry button and not another icon.
  await page.getByText("Are you sure that you want to retry this job?").waitFor();
  await page.getByRole("button", { name: "Confirm" }).click();

  // The job left the failed set and completed: a completed delivery job is removed at once, gone from
  // every list. Its row is dead still, with its DLQ entry: the retry sent nothing.
  await eventually(async () => (await queue.getJobState(jobId)) === "unknown", 10_000, "job to be removed");
  expect(await dlqEntryOf(gw, hookId, "forward")).toMatchObject({ id: jobId, error_class: "permanent" });
  expect(rx.requests).toHaveLength(1);
  // A replay naming the hook brings the delivery back; it is delivered on its second attempt.
  expect((await admin(gw, "POST", "/v1/replays", { body: { filter: { ids: [hookId] } } })).status).toBe(202);
  await waitForState(gw, hookId, "forward", "delivered", 20_000);
  expect(rx.requests).toHaveLength(2);
  expect(rx.requests[1]!.headers["x-switchyard-id"]).toBe(hookId);

  await page.goto(`${gw.url}/admin/queues/queue/sink-forward?status=failed`);
  await page.getByText("sink-forward", { exact: true }).first().waitFor({ timeout: 10_000 });
  expect(await page.locator(`a[href*="${jobId}"]`).count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/bull-board-retried.png`, fullPage: true });
  expect(outside).toEqual([]);
  expect(refused).toEqual([]);
  await queue.close();
});

it("keeps the board to admins and its own origin, lists the queues on it, and pauses and resumes replays from its page", async () => {
  gw = await startTestGateway(
    testConfig({
      admin: { tokens: [ADMIN_TOKEN, { token: TENANT_TOKEN, tenant: "acme" }] },
      sinks: { forward: { type: "http", url: "http://127.0.0.1:9/unused" } },
      sources: { src: { verify: { type: "none" }, sinks: ["forward"] } },
    }),
    { roles: ["api"] },
  );
  const replays = new Queue(REPLAY_QUEUE, {
    connection: gw.redis,
    prefix: gw.gateway.keys.queuePrefix(REPLAY_QUEUE),
  });
  try {
    browser = await launchChromium();
    await expectOnlyAdminsLetIn(browser, gw);
    const { page, outside, refused } = await operatorPage(browser);
    expect((await page.goto(`${gw.url}/admin/queues`))?.status()).toBe(200);
    for (const name of [REPLAY_QUEUE, "maintenance"]) {
      await expect
        .poll(() => page.getByText(name, { exact: true }).count(), { timeout: 10_000 })
        .toBeGreaterThan(0);
    }
    // A delivery queue is on the board only while it is BullMQ's.
    const delivery = await page.getByText(sinkQueueName("forward"), { exact: true }).count();
    if (onLedgerEngine(gw)) expect(delivery).toBe(0);
    else expect(delivery).toBeGreaterThan(0);

    // The board's writes come from its own page, which the origin guard lets through.
    await page.goto(`${gw.url}/admin/queues/queue/${REPLAY_QUEUE}`);
    const queueAction = async (name: "Pause" | "Resume"): Promise<void> => {
      await page.locator("button:has(svg.lucide-ellipsis-vertical)").click();
      await page.getByRole("menuitem", { name }).click();
      if (name === "Pause")
        await page.getByText("Are you sure that you want to pause queue processing?").waitFor();
      await page.getByRole("button", { name: "Confirm" }).click();
    };
    await queueAction("Pause");
    await expect.poll(() => replays.isPaused(), { timeout: 10_000 }).toBe(true);
    await page.getByText("[ Paused ]").first().waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/bull-board-replays-paused.png`, fullPage: true });
    await queueAction("Resume");
    await expect.poll(() => replays.isPaused(), { timeout: 10_000 }).toBe(false);
    expect(outside).toEqual([]);
    expect(refused).toEqual([]);
  } finally {
    await replays.close();
  }
});

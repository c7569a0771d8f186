// Bull Board in a real headless Chromium: an operator logs in with basic auth (the admin token as
// password), sees every queue, opens a dead-lettered job and retries it, and the job leaves the failed set.
// Retrying the job runs it again, and a job that finds its row dead just completes: the delivery stays
// dead, in the DLQ, until a replay naming it brings it back.
import { mkdirSync } from "node:fs";
import { Queue } from "bullmq";
import type { Browser } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { launchChromium, loopbackOnly } from "../support/chromium.ts";
import { dlqEntryOf, sendHook, waitForState } from "../support/hooks.ts";
import { admin } from "../integration/admin-fixtures.ts";
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
});

it("logs in, shows every queue, and retries a failed job from the browser", async () => {
  // The first delivery is refused for good (410 → dead-lettered); the replayed one succeeds.
  rx = await startReceiver({ script: [410], fallback: 200 });
  const config = testConfig({
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
  mkdirSync(ARTIFACTS, { recursive: true });

  // Without credentials the browser is challenged for basic auth; a token bound to one tenant may not see all queues.
  const anonymous = await browser.newContext();
  await loopbackOnly(anonymous);
  // Headless Chromium has no prompt to show, so the basic-auth challenge ends the navigation.
  await expect((await anonymous.newPage()).goto(`${gw.url}/admin/queues`)).rejects.toThrow(
    /ERR_INVALID_AUTH_CREDENTIALS/,
  );
  const denied = await fetch(`${gw.url}/admin/queues`);
  expect(denied.status).toBe(401);
  expect(denied.headers.get("www-authenticate")).toBe('Basic realm="switchyard"');
  const tenantOnly = await browser.newContext({
    httpCredentials: { username: "ops", password: TENANT_TOKEN },
  });
  await loopbackOnly(tenantOnly);
  expect((await (await tenantOnly.newPage()).goto(`${gw.url}/admin/queues`))?.status()).toBe(404);

  const context = await browser.newContext({
    httpCredentials: { username: "ops", password: ADMIN_TOKEN },
    viewport: { width: 1280, height: 800 },
  });
  const outside = await loopbackOnly(context);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  // The page must not even try to reach another origin (it once fetched web fonts from a CDN), and
  // its content security policy must not refuse anything the board itself needs.
  const refused: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
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

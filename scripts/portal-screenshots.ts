// The README's portal screenshots, taken with the browser test's Chromium on the same stage (test/support/
// portal-scene.ts): a gateway on the local Redis under a throw-away prefix, a receiver that fails some
// deliveries, a few endpoints with traffic. Run `npm run docs:portal-screenshots`; writes docs/portal/*.png.
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { admin } from "../test/integration/admin-fixtures.ts";
import { launchChromium, loopbackOnly } from "../test/support/chromium.ts";
import { type PortalScene, TENANT, startPortalScene } from "../test/support/portal-scene.ts";
import { eventually } from "../test/support/test-gateway.ts";

const OUT = "docs/portal";

async function endpoint(s: PortalScene, body: Record<string, unknown>): Promise<string> {
  const res = await admin(s.gw, "POST", "/v1/endpoints", { body: { tenant: TENANT, ...body } });
  if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.id as string;
}

async function publish(s: PortalScene, id: string, type: string): Promise<void> {
  const res = await admin(s.gw, "POST", "/v1/events", {
    body: { id, type, tenant: TENANT, payload: { order: id, amount_cents: 4200, currency: "EUR" } },
  });
  if (res.status !== 202) throw new Error(`publish: ${res.status}`);
  await eventually(
    async () => {
      const rows = await admin(s.gw, "GET", `/v1/events/${id}/deliveries?tenant=${TENANT}`);
      return (rows.json.data as { state: string }[]).every(
        (r) => r.state === "delivered" || r.state === "dead",
      );
    },
    20_000,
    `${id} to settle`,
  );
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
  console.log(`${OUT}/${name}.png`);
}

async function main(): Promise<void> {
  // Orders: one 503 then delivered, one refused for good; then all delivered.
  const s = await startPortalScene([
    { status: 503, body: "upstream busy, try later" },
    200,
    { status: 422, body: '{"error":"unknown order ord_1043"}' },
  ]);
  const browser = await launchChromium();
  try {
    mkdirSync(OUT, { recursive: true });
    const orders = await endpoint(s, {
      url: `${s.rx.url}/webhooks/orders`,
      event_types: ["order.paid", "order.refunded"],
      description: "Orders service",
      rate_limit_per_s: 50,
      headers: { "x-team": "payments" },
    });
    await endpoint(s, {
      url: `${s.rx.url}/webhooks/crm`,
      event_types: ["customer.*"],
      description: "CRM sync",
    });
    await endpoint(s, {
      url: `${s.rx.url}/webhooks/audit`,
      event_types: ["*"],
      description: "Audit log",
      disabled: true,
    });
    await publish(s, "ord_1042", "order.paid");
    await publish(s, "ord_1043", "order.paid");
    await publish(s, "cus_77", "customer.created");
    await publish(s, "ord_1044", "order.refunded");

    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    await loopbackOnly(context);
    const page = await context.newPage();
    page.on("dialog", (d) => void d.accept());
    await page.goto(await s.link());
    await page.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    await shoot(page, "endpoints");

    await page.goto(`${s.gw.url}/portal/endpoints/new`);
    await page.getByLabel("URL").fill("https://hooks.acme.example/switchyard");
    await page.getByLabel("order.paid").check();
    await shoot(page, "new-endpoint");

    await page.goto(`${s.gw.url}/portal/endpoints/${orders}`);
    await shoot(page, "endpoint");

    const dead = await page.locator("tr", { hasText: "dead" }).getByRole("link").first().textContent();
    await page.goto(`${s.gw.url}/portal/deliveries/${dead ?? ""}`);
    await shoot(page, "delivery-attempts");

    await page.getByRole("button", { name: "Replay this delivery" }).click();
    await page.waitForURL(/\/portal\/replays\//);
    await page.getByText("done", { exact: true }).waitFor({ timeout: 20_000 });
    await shoot(page, "replay");

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    await loopbackOnly(phone);
    const small = await phone.newPage();
    await small.goto(await s.link({ readOnly: true }));
    await small.getByRole("heading", { name: "Endpoints", level: 1 }).waitFor();
    await shoot(small, "phone-read-only");
  } finally {
    await browser.close();
    await s.stop();
  }
}

await main();

// Regression (issue 33) in a real headless Chromium: an operator logs into the dashboard with basic auth,
// then opens a hostile page on another site. The page submits plain HTML forms at the gateway: a
// `text/plain` form whose one field spells a JSON body, and an empty urlencoded one. Chromium sends such
// top-level form posts with the basic-auth credentials it cached for the dashboard, so on the old code
// the board's add-job action took the JSON-looking body and planted a job. Nothing may change: no job, no
// endpoint, no rotated secret. The board's form targets the replays queue, which the board shows with
// either delivery engine (the ledger engine's delivery queues are not on it); its guard is the same for
// every queue.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Queue } from "bullmq";
import type { Browser, Page } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { REPLAY_QUEUE } from "../../src/queue/replay-queue.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { launchChromium, loopbackOnly } from "../support/chromium.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const QUEUE = REPLAY_QUEUE;

let gw: TestGateway | undefined;
let hostile: Server | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  await gw?.stop();
  await new Promise((resolve) => (hostile ? hostile.close(resolve) : resolve(undefined)));
});

/** A page that submits one form to `action` as soon as it loads. `json` is spelled by a text/plain form. */
function formPage(action: string, enctype: string, json?: Record<string, unknown>): string {
  // text/plain sends `name=value`: a name ending in `"pad":"` and the value `"}` make `{…,"pad":"="}`.
  const field = json
    ? `<input name='${JSON.stringify(json).slice(0, -1).replaceAll("'", "&#39;")},"pad":"' value='"}'>`
    : "";
  return `<!doctype html><body onload="document.forms[0].submit()">
<form method="POST" enctype="${enctype}" action="${action}">${field}</form></body>`;
}

/** Serve `pages` (path → HTML) on localhost: another site than the gateway's 127.0.0.1. */
async function startHostileSite(pages: Record<string, string>): Promise<string> {
  hostile = createServer((req, res) => {
    const page = pages[req.url ?? ""];
    res.writeHead(page ? 200 : 404, { "content-type": "text/html" }).end(page ?? "");
  });
  await new Promise<void>((resolve) => hostile!.listen(0, "127.0.0.1", resolve));
  return `http://localhost:${(hostile.address() as AddressInfo).port}`;
}

/** Open the hostile page and wait until its form's answer from the gateway has loaded. */
async function visit(page: Page, url: string, gateway: string): Promise<void> {
  await page.goto(url);
  await page.waitForURL((u) => u.origin === gateway, { timeout: 15_000 });
}

it("a hostile page's form posts change nothing, though Chromium sends them with the dashboard's credentials", async () => {
  gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true },
      sinks: { forward: { type: "http", url: "http://127.0.0.1:9/unused" } },
      sources: { src: { verify: { type: "none" }, sinks: ["forward"] } },
    }),
    { roles: ["api"] },
  );
  const queue = new Queue(QUEUE, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(QUEUE) });
  const endpoints = new EndpointStore(gw.redis, gw.gateway.keys);
  try {
    const bearer = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const created = await fetch(`${gw.url}/v1/endpoints`, {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({ url: "http://127.0.0.1:9/hook", event_types: ["*"] }),
    });
    const { id, secret } = (await created.json()) as { id: string; secret: string };

    const site = await startHostileSite({
      "/board": formPage(`${gw.url}/admin/queues/api/queues/${QUEUE}/add`, "text/plain", {
        name: "planted",
        data: { from: "evil" },
        options: {},
      }),
      "/endpoints": formPage(`${gw.url}/v1/endpoints`, "text/plain", {
        url: "http://127.0.0.1:9/attacker",
        event_types: ["*"],
      }),
      "/rotate": formPage(`${gw.url}/v1/endpoints/${id}/rotate-secret`, "application/x-www-form-urlencoded"),
    });

    browser = await launchChromium();
    const context = await browser.newContext({ httpCredentials: { username: "ops", password: ADMIN_TOKEN } });
    await loopbackOnly(context);
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const seen: { path: string; status: number }[] = [];
    page.on("response", (res) => {
      const url = new URL(res.url());
      if (url.origin === gw!.url && res.request().method() === "POST")
        seen.push({ path: url.pathname, status: res.status() });
    });
    // The operator logs in to the dashboard...
    expect((await page.goto(`${gw.url}/admin/queues`))?.status()).toBe(200);
    // ...and later visits the hostile pages.
    for (const path of ["/board", "/endpoints", "/rotate"]) await visit(page, `${site}${path}`, gw.url);

    // The board's form post carried the operator's credentials (403 comes after authentication, 401
    // before): only the origin check stopped it. /v1 refuses basic auth whatever the browser sends.
    expect(seen.map((s) => [s.path, s.status])).toEqual([
      [`/admin/queues/api/queues/${QUEUE}/add`, 403],
      ["/v1/endpoints", 401],
      [`/v1/endpoints/${id}/rotate-secret`, 401],
    ]);
    expect(await queue.getJobs(["waiting", "delayed", "paused", "prioritized", "active"])).toEqual([]);
    const listed = await fetch(`${gw.url}/v1/endpoints`, {
      headers: { authorization: bearer.authorization },
    });
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((e) => e.id)).toEqual([id]);
    expect((await endpoints.get(id))?.secret).toBe(secret);
  } finally {
    await queue.close();
  }
});

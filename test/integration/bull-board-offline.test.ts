// Bull Board's page once linked its fonts from fonts.googleapis.com: an operator's browser reached out
// to a public CDN to show an admin page, and an offline or locked-down network showed it half-styled
// after a timeout. The page and its stylesheets now name no origin but the gateway's own.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway;
const auth = { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } };

beforeAll(async () => {
  gw = await startTestGateway(
    testConfig({
      sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    }),
  );
});
afterAll(() => gw.stop());

/** Every absolute http(s) URL in `text`. */
const absoluteUrls = (text: string): string[] =>
  [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);

it("serves the board page and its CSS with no http(s) URL outside the gateway", async () => {
  const res = await fetch(`${gw.url}/admin/queues`, auth);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toContain('id="root"');
  expect(absoluteUrls(html).filter((u) => !u.startsWith(gw.url))).toEqual([]);
  // No protocol-relative links either (//host/... would leave the gateway too).
  expect(html).not.toMatch(/(?:href|src)\s*=\s*["']\/\//);

  const base = new URL(/<base href="([^"]+)"/.exec(html)?.[1] ?? "/admin/queues/", gw.url);
  const sheets = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*>/g)].map(
    (m) => /href="([^"]+)"/.exec(m[0])?.[1] ?? "",
  );
  expect(sheets.length).toBeGreaterThan(0);
  for (const href of sheets) {
    const url = new URL(href, base);
    expect(url.origin).toBe(gw.url);
    const css = await fetch(url, auth);
    expect(css.status).toBe(200);
    const text = await css.text();
    expect(absoluteUrls(text).filter((u) => !u.startsWith(gw.url))).toEqual([]);
    expect(text).not.toMatch(/@import|url\(\s*["']?(?:https?:)?\/\//);
  }
  // The fonts come from the system: the board's own stack, without the web font it used to fetch.
  expect(html).toMatch(/--font-sans:\s*system-ui/);
});

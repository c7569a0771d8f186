// Real headless Chromium for browser tests, driven by playwright-core against Debian's own build
// (CI installs it with `apt-get update && apt-get install -y chromium`). A missing browser fails the test
// with that instruction instead of skipping it, so a green run always means the browser test ran.
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launch Chromium with a fresh, throw-away profile. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install it with ` +
        `"apt-get update && apt-get install -y chromium" (or set CHROMIUM_PATH).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: 20_000,
  });
}

/**
 * Abort every request that would leave the machine: tests talk to loopback only. Returns the URLs
 * aborted, as they happen, so a test can assert that a page asked for nothing outside.
 */
export async function loopbackOnly(context: BrowserContext): Promise<string[]> {
  const blocked: string[] = [];
  await context.route(
    (url) => !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname),
    (route) => {
      blocked.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  return blocked;
}

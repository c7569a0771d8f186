// A sink's circuit breaker is shared by every worker process: with two worker processes and a dead sink,
// one breaker opens for both (each process's gauge shows it), and one probe goes out per open period
// across both, not one per process.
import { afterEach, expect, it } from "vitest";
import { metricValue, sendHook } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const gateways: TestGateway[] = [];
let rx: Receiver | undefined;
afterEach(async () => {
  for (const g of gateways.splice(0).reverse()) await g.stop();
  await rx?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const OPEN_MS = 800;

it("regression: per-process sink breakers — two worker processes, a dead sink: one breaker, one probe per open period", async () => {
  rx = await startReceiver({ fallback: 503 });
  const config = testConfig({
    dispatch: {
      concurrency: 2,
      retry: { base_ms: 20, max_ms: 50, max_attempts: 1000, max_elapsed_ms: 60_000 },
      breaker: { failures: 3, open_ms: OPEN_MS, max_open_ms: OPEN_MS },
    },
    sinks: { dead: { type: "http", url: `${rx.url}/dead` } },
    sources: { src: { verify: { type: "none" }, sinks: ["dead"] } },
  });
  // One API process and two worker processes of one deployment (one prefix).
  const api = await startTestGateway(config, { roles: ["api"] });
  gateways.push(api);
  const workers = [
    await startTestGateway(config, { roles: ["dispatch"] }),
    await startTestGateway(config, { roles: ["dispatch"] }),
  ];
  gateways.push(...workers);
  const gauge = (w: TestGateway) => metricValue(w, "switchyard_breaker_state", { sink: "dead" });
  const transitions = async (to: string) =>
    (
      await Promise.all(
        workers.map((w) => metricValue(w, "switchyard_breaker_transitions_total", { sink: "dead", to })),
      )
    ).reduce((a, b) => a + b, 0);

  await Promise.all(Array.from({ length: 20 }, (_, i) => sendHook(api, "src", `{"n":${i}}`)));
  // Opened by whichever process failed third; the other hears of it.
  await eventually(
    async () => (await gauge(workers[0]!)) === 2 && (await gauge(workers[1]!)) === 2,
    5000,
    "both processes to see the breaker open",
  );
  expect(await transitions("open")).toBe(1);

  // Attempts already in flight when it opened land; from here on every request is a probe.
  await sleep(300);
  const from = rx.requests.length;
  const probesBefore = await transitions("half_open");
  const windowMs = 4000;
  await sleep(windowMs);
  const window = rx.requests.slice(from);
  const probes = (await transitions("half_open")) - probesBefore;

  // One probe per open period across both processes (each fails and re-opens for OPEN_MS): about five
  // in the window, at least three even on a slow machine. Not one per probe lease (attempt timeout +
  // lock, 4 s here): a ledger worker held while a probe was out once slept through its failure.
  expect(window.length).toBeGreaterThanOrEqual(3);
  expect(window.length).toBeLessThanOrEqual(Math.floor(windowMs / OPEN_MS) + 1);
  for (let i = 1; i < window.length; i++)
    expect(window[i]!.receivedAt - window[i - 1]!.receivedAt).toBeGreaterThanOrEqual(OPEN_MS * 0.9);
  // Each probe is one transition to half-open, counted once cluster-wide (a probe may be on its way).
  expect(Math.abs(probes - window.length)).toBeLessThanOrEqual(1);
  expect(await gauge(workers[0]!)).toBeGreaterThan(0);
  expect(await gauge(workers[1]!)).toBeGreaterThan(0);
}, 30_000);

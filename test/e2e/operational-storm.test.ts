// A storm stays bounded: a sink that is down while 2,000 hooks die at it raises 2,000 `hook.dead` facts,
// and with the default budget (60 per target per minute) at most 60 of them are sent per minute they
// fall in; the rest are counted as suppressed (switchyard_operational_events_total), none lost from the
// count and none sent twice.
import { expect, it } from "vitest";
import { opsEndpoint } from "../support/operational.ts";
import { gateway, receiver, useOutboundTeardown } from "../support/outbound.ts";
import { eventually, testConfig } from "../support/test-gateway.ts";

useOutboundTeardown();

const HOOKS = 2000;
const BUDGET = 60;

it(`storm: ${HOOKS} hooks dying at a sink that is down send at most ${BUDGET} hook.dead a minute`, async () => {
  const down = await receiver({ fallback: 500 });
  const gw = await gateway(
    testConfig({
      outbound: { allow_private: true },
      operational: { delivery_events_per_minute: BUDGET },
      dispatch: {
        concurrency: 64,
        retry: { base_ms: 10, max_ms: 20, max_attempts: 1, max_elapsed_ms: 10_000 },
        breaker: { failures: 100_000, open_ms: 500, max_open_ms: 2000 },
      },
      sinks: { forward: { type: "http", url: `${down.url}/in` } },
      sources: { shop: { verify: { type: "none" }, sinks: ["forward"] } },
    }),
  );
  // hook.dead only: the endpoint facts (its own creation) are another test's.
  const ops = await opsEndpoint(gw, { patterns: ["switchyard.hook.*"] });
  const startMinute = Math.floor(Date.now() / 60_000);
  for (let i = 0; i < HOOKS; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, HOOKS - i) }, (_, j) =>
        fetch(`${gw.url}/webhooks/shop`, { method: "POST", body: JSON.stringify({ n: i + j }) }).then((r) => {
          if (r.status !== 202) throw new Error(`hook ${i + j}: ${r.status}`);
        }),
      ),
    );
  const count = async (outcome: string) =>
    (await gw.metrics.operationalEvents.get()).values
      .filter((v) => v.labels.type === "switchyard.hook.dead" && v.labels.outcome === outcome)
      .reduce((n, v) => n + v.value, 0);
  await eventually(
    async () => (await count("published")) + (await count("suppressed")) === HOOKS,
    90_000,
    `all ${HOOKS} facts drained`,
  );
  const minutes = Math.floor(Date.now() / 60_000) - startMinute + 1;
  const published = await count("published");
  const suppressed = await count("suppressed");
  await eventually(() => ops.events().length === published, 15_000, "every sent fact to arrive");
  await new Promise((r) => setTimeout(r, 500));
  const received = ops.events();
  console.log(
    `storm: ${HOOKS} hook.dead facts over ${minutes} minute(s): ${published} sent, ${suppressed} suppressed, ${received.length} received`,
  );
  expect(await count("failed")).toBe(0);
  expect(published).toBeGreaterThanOrEqual(BUDGET);
  expect(published).toBeLessThanOrEqual(BUDGET * minutes);
  expect(received.length).toBe(published);
  expect(new Set(received.map((e) => e.id)).size).toBe(received.length);
  expect(received.every((e) => e.type === "switchyard.hook.dead" && e.data.sink === "forward")).toBe(true);
}, 150_000);

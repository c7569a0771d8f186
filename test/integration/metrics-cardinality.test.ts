// Names in the path are the sender's choice: metrics must not grow a series per name anyone invents.
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

/** Announce a body far over the limit, send none of it, and return the status line's code. */
function oversized(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n`),
    );
    let data = "";
    socket.on("data", (d) => {
      data += d.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on("error", reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer for ${path}`));
    }, 5000);
  });
}

it("unbounded_metric_series: 50 unknown sources make one _unknown series, none of them read", async () => {
  gw = await startTestGateway(
    testConfig({
      http: { max_body_bytes: 1024 },
      sinks: { a: { type: "http", url: "http://127.0.0.1:9/a" } },
      sources: { open: { verify: { type: "none" }, sinks: ["a"] } },
    }),
    { roles: ["api"] },
  );
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) {
    const path = i % 2 === 0 ? `/webhooks/attacker${i}` : `/webhooks/tenant${i}/attacker${i}`;
    if (i % 3 === 0) statuses.push(await oversized(gw.gateway.port!, path));
    else statuses.push((await fetch(`${gw.url}${path}`, { method: "POST", body: "{}" })).status);
  }
  // Unknown is answered before the body is even looked at: never 413.
  expect(new Set(statuses)).toEqual(new Set([404]));

  const text = await (await fetch(`${gw.url}/metrics`)).text();
  const series = text.split("\n").filter((l) => l.startsWith("switchyard_ingest_requests_total{"));
  expect(series).toEqual(['switchyard_ingest_requests_total{source="_unknown",outcome="unknown_source"} 50']);
  expect(text).not.toContain("attacker");
});

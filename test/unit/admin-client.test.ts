// The CLI's admin client (the @switchyard/client package) speaks the only dialect the admin API accepts:
// a bearer token (never basic auth) and `Content-Type: application/json` on every write, body-less ones
// included, since the API answers 415 to any write that does not declare JSON.
import { expect, it } from "vitest";
import { AdminClient } from "../../src/cli/admin-client.ts";

it("sends a bearer token, and declares JSON on every write, body or not", async () => {
  const seen: { method: string; headers: Record<string, string> }[] = [];
  const client = new AdminClient({
    url: "http://api.test:3000",
    token: "cli-token-0123456789",
    fetch: async (_url, init) => {
      seen.push({ method: init.method ?? "GET", headers: init.headers as Record<string, string> });
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  await client.run((c) => c.dlq.list());
  await client.run((c) => c.replays.create({ filter: {} }));
  await client.run((c) => c.endpoints.rotateSecret("ep_x"));
  await client.run((c) => c.dlq.purge("x"));
  for (const { headers } of seen) expect(headers.authorization).toBe("Bearer cli-token-0123456789");
  expect(seen.map((s) => [s.method, s.headers["content-type"]])).toEqual([
    ["GET", undefined],
    ["POST", "application/json"],
    ["POST", "application/json"],
    ["DELETE", "application/json"],
  ]);
});

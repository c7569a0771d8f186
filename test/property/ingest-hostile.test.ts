// Random signatures and lying bodies on the ingest path, on real Redis: no hook whose signature does
// not verify is stored or delivered, and truncated bodies or a lying Content-Length on a real socket
// never get a 5xx nor stop the server from answering.
import { createHmac } from "node:crypto";
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GITHUB_SECRET,
  type PropertyGateway,
  headerValue,
  startPropertyGateway,
} from "../support/http-arbitraries.ts";
import { runs } from "../support/property.ts";
import { ADMIN_TOKEN } from "../support/test-gateway.ts";

let env: PropertyGateway;
beforeAll(async () => {
  env = await startPropertyGateway();
});
afterAll(async () => {
  await env?.stop();
});

async function countKeys(pattern: string): Promise<number> {
  let n = 0;
  let cursor = "0";
  do {
    const [next, keys] = await env.gw.redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    n += keys.length;
  } while (cursor !== "0");
  return n;
}

describe("ingest under random signatures and lying bodies", () => {
  it("stores and delivers no hook whose signature does not verify", async () => {
    const app = env.gw.gateway.app!;
    // Every bucket of the deployment's prefix.
    const base = `{${env.gw.config.redis.prefix}:*}`;
    const before = await countKeys(`${base}:hook:*`);
    const delivered = env.rx.requests.length;
    const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
    const githubSig = fc.oneof(
      hex64.map((h) => `sha256=${h}`),
      headerValue,
      fc.constant(undefined),
      // A real signature, of different bytes than are sent.
      fc
        .uint8Array({ maxLength: 64 })
        .map(
          (other) => `sha256=${createHmac("sha256", GITHUB_SECRET).update(Buffer.from(other)).digest("hex")}`,
        ),
    );
    const swHeaders = fc.record(
      {
        "webhook-id": headerValue,
        "webhook-timestamp": fc.oneof(
          fc.integer().map(String),
          fc.constant(String(Math.floor(Date.now() / 1000))),
        ),
        "webhook-signature": fc.oneof(
          headerValue,
          fc.base64String({ maxLength: 60 }).map((s) => `v1,${s}`),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        githubSig,
        swHeaders,
        async (bytes, sig, sw) => {
          const payload = Buffer.concat([Buffer.from('{"id":"'), Buffer.from(bytes), Buffer.from('"}')]);
          const gh = await app.request("/webhooks/gh", {
            method: "POST",
            body: payload,
            headers: sig === undefined ? {} : { "x-hub-signature-256": sig },
          });
          expect(gh.status).toBe(401);
          expect(((await gh.json()) as { error: { code: string } }).error.code).toBe("verification_failed");
          const res = await app.request("/webhooks/sw", { method: "POST", body: payload, headers: sw });
          expect(res.status).toBe(401);
          await res.arrayBuffer();
        },
      ),
      runs(300),
    );
    expect(await countKeys(`${base}:hook:*`)).toBe(before);
    expect(await countKeys(`${base}:dedup:*:gh:*`)).toBe(0);
    expect(await countKeys(`${base}:dedup:*:sw:*`)).toBe(0);
    // Give a wrongly accepted hook time to be delivered before saying none was.
    await new Promise((r) => setTimeout(r, 300));
    expect(env.rx.requests.length).toBe(delivered);
  });

  it("survives lying Content-Length and truncated bodies on real sockets", async () => {
    const port = env.gw.gateway.port!;
    const exchange = (head: string, sent: Buffer, end: "half-close" | "destroy" | "wait"): Promise<string> =>
      new Promise((resolve) => {
        let data = "";
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(head);
          socket.write(sent);
          if (end === "half-close") socket.end();
          if (end === "destroy") setTimeout(() => socket.destroy(), 5);
        });
        socket.on("data", (d) => (data += d.toString("latin1")));
        socket.on("error", () => undefined);
        socket.on("close", () => resolve(data));
        // `wait`: the request timeout (2 s) would end it; do not wait that long per run.
        setTimeout(() => socket.destroy(), end === "wait" ? 150 : 1000);
      });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/webhooks/open", "/webhooks/gh", "/webhooks/acme/open", "/v1/replays", "/nope"),
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: -50, max: 10_000_000 }),
        fc.constantFrom("half-close", "destroy", "wait") as fc.Arbitrary<"half-close" | "destroy" | "wait">,
        async (p, bytes, lie, end) => {
          const sent = Buffer.from(bytes);
          const declared = Math.max(0, sent.length + lie);
          const head = `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`;
          const answer = await exchange(head, sent, end);
          for (const m of answer.matchAll(/HTTP\/1\.1 (\d{3})/g))
            expect(Number(m[1]), `${p} ${declared}/${sent.length}`).toBeLessThan(500);
        },
      ),
      runs(100),
    );
    const health = await fetch(`${env.gw.url}/healthz`);
    expect(health.status).toBe(200);
  });
});

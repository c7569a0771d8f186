// Rendering and error mapping of the `switchyard` CLI, with a fake fetch (no server, no sockets).
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Fetch } from "../../src/cli/admin-client.ts";
import { bodyText, dlqTable, hookDetails, replaySummary, table, truncate } from "../../src/cli/format.ts";
import { runCli } from "../../src/cli/run.ts";

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return Object.assign(w, { text: () => chunks.join("") });
}

async function run(
  argv: string[],
  fetch: Fetch,
  env: Record<string, string> = { SWITCHYARD_ADMIN_TOKEN: "tok" },
) {
  const stdout = sink();
  const stderr = sink();
  const code = await runCli(argv, { stdout, stderr, env, fetch, pollMs: 1 });
  return { code, out: stdout.text(), err: stderr.text() };
}

const json = (status: number, body: unknown): Promise<Response> =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
  );

describe("format", () => {
  it("aligns table columns and truncates on one line", () => {
    expect(
      table(
        ["A", "LONGER"],
        [
          ["xyz", "1"],
          ["x", "22"],
        ],
      ),
    ).toBe("A    LONGER\nxyz  1\nx    22");
    expect(truncate("a\nb   c", 10)).toBe("a b c");
    expect(truncate("abcdefghij", 5)).toBe("abcd…");
  });

  it("renders DLQ entries as a table, and says so when there are none", () => {
    const out = dlqTable([
      {
        id: "hk_1-out",
        source: "stripe",
        tenant: "acme",
        sink: "out",
        error_class: "permanent",
        reason: "HTTP 410",
        attempts: 1,
        dead_at: "2030-01-01T00:00:00.000Z",
      },
      {
        id: "hk_2-out",
        source: "github",
        sink: "out",
        error_class: "transient",
        reason: "x".repeat(100),
        attempts: 25,
        dead_at: "2030-01-01T00:00:01.000Z",
      },
      {
        id: "dl_3",
        direction: "outbound",
        target: "ep_3",
        event_type: "order.paid",
        endpoint: "ep_3",
        error_class: "permanent",
        reason: "HTTP 410",
        attempts: 1,
        dead_at: "2030-01-01T00:00:02.000Z",
      },
    ]);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(
      /^DEAD AT\s+ID\s+DIRECTION\s+SOURCE\/TYPE\s+TARGET\s+TENANT\s+CLASS\s+ATTEMPTS\s+REASON$/,
    );
    // Entries from a server without `direction` read as inbound by their sink.
    expect(lines[1]).toMatch(/\binbound\s+stripe\s+out\s+acme\b/);
    expect(lines[3]).toMatch(/\boutbound\s+order\.paid\s+ep_3\s+-\s+permanent\b/);
    expect(lines[1]).toContain("hk_1-out");
    expect(lines[1]).toContain("acme");
    expect(lines[2]).toContain(" - "); // no tenant
    expect(lines[2]!.endsWith("…")).toBe(true);
    expect(lines[1]!.indexOf("hk_1-out")).toBe(lines[2]!.indexOf("hk_2-out"));
    expect(dlqTable([])).toBe("no dead deliveries match");
  });

  it("renders a hook with its sinks, and the body as text or base64", () => {
    const out = hookDetails({
      id: "hk_1",
      source: "stripe",
      received_at: "2030-01-01T00:00:00.000Z",
      size: 2,
      sha256: "ab",
      idempotency_key: "-:stripe:evt",
      headers: { "content-type": "application/json" },
      sinks: {
        forward: {
          state: "dead",
          attempts: 3,
          last_error: "HTTP 500",
          error_class: "transient",
          last_attempt_at: "2030-01-01T00:01:00.000Z",
        },
        bus: { state: "delivered", attempts: 1, delivered_at: "2030-01-01T00:00:01.000Z", replay_id: "rp_1" },
      },
      body_base64: Buffer.from("{}").toString("base64"),
    });
    expect(out).toMatch(/^id\s+hk_1$/m);
    expect(out).toMatch(/^tenant\s+-$/m);
    expect(out).toMatch(
      /^forward\s+dead\s+3\s+last attempt 2030-01-01T00:01:00.000Z\s+HTTP 500 \[transient\]$/m,
    );
    expect(out).toMatch(/^bus\s+delivered \(replay rp_1\)\s+1\s+delivered 2030/m);
    expect(out).toContain("  content-type: application/json");
    expect(out.endsWith("body:\n{}")).toBe(true);
    expect(bodyText(Buffer.from([0, 255, 1]).toString("base64"))).toBe("(binary, base64) AP8B");
  });

  it("summarises a replay", () => {
    expect(
      replaySummary(
        { id: "rp_1", state: "done", matched: 10, moved: 9, failed: 1, total_estimate: 12 },
        5.04,
      ),
    ).toBe("replay rp_1 done: moved 9, failed 1 of 10 matched, in 5.0 s");
  });
});

describe("runCli against a fake API", () => {
  it("sends the token and the filters, and prints the table", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const res = await run(["dlq", "list", "--source", "s", "--limit", "5"], (url, init) => {
      calls.push({ url, init });
      return json(200, { data: [], next_cursor: "c1" });
    });
    expect(res.code).toBe(0);
    expect(calls[0]!.url).toBe("http://127.0.0.1:3000/v1/dlq?source=s&limit=5");
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer tok");
    expect(res.out).toBe("no dead deliveries match\n");
    expect(res.err).toContain("--cursor c1");
  });

  it("exits 77 with a hint on 401, 69 when the server is unreachable, 64 on bad input", async () => {
    const unauthorized = await run(
      ["hooks", "show", "hk_1"],
      () => json(401, { error: { code: "unauthorized", message: "no" } }),
      {},
    );
    expect(unauthorized.code).toBe(77);
    expect(unauthorized.err).toContain("set SWITCHYARD_ADMIN_TOKEN");
    const refused = await run(["hooks", "show", "hk_1"], () =>
      json(401, { error: { code: "unauthorized", message: "no" } }),
    );
    expect(refused.err).toContain("refused the token");

    const down = await run(
      ["dlq", "list"],
      () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } })),
      {
        SWITCHYARD_URL: "http://127.0.0.1:9",
        SWITCHYARD_ADMIN_TOKEN: "t",
      },
    );
    expect(down.code).toBe(69);
    expect(down.err).toContain("cannot reach the Switchyard admin API at http://127.0.0.1:9 (ECONNREFUSED)");

    const bad = await run(["dlq", "list"], () =>
      json(400, { error: { code: "invalid_request", message: "limit must be …" } }),
    );
    expect(bad.code).toBe(64);
    expect(bad.err).toContain("invalid request: limit must be …");
    const missing = await run(["hooks", "show", "hk_x"], () =>
      json(404, { error: { code: "not_found", message: "no such hook" } }),
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("not found: no such hook");
    const usage = await run(["dlq", "list", "--bogus"], () => json(200, {}));
    expect(usage.code).toBe(64);
    expect(usage.err).toContain("Usage: switchyard");
  });

  it("polls a replay until it is done and exits non-zero if entries failed", async () => {
    let polls = 0;
    const fetch: Fetch = (url, init) => {
      if (init.method === "POST") {
        expect(JSON.parse(String(init.body))).toEqual({ filter: { source: "s" }, rate_per_s: 50 });
        return json(202, {
          id: "rp_1",
          state: "running",
          matched: 0,
          moved: 0,
          failed: 0,
          total_estimate: 3,
        });
      }
      expect(url).toBe("http://127.0.0.1:3000/v1/replays/rp_1");
      polls += 1;
      const state = polls < 3 ? "running" : "done";
      return json(200, {
        id: "rp_1",
        state,
        matched: 3,
        moved: polls < 3 ? polls : 2,
        failed: polls < 3 ? 0 : 1,
        total_estimate: 3,
      });
    };
    const res = await run(["dlq", "replay", "--source", "s", "--rate", "50"], fetch);
    expect(polls).toBe(3);
    expect(res.out).toMatch(/^replay rp_1 done: moved 2, failed 1 of 3 matched/);
    expect(res.code).toBe(1);
  });
});

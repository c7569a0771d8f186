// Steering a replay: pause stops moves within about a second, resume carries on, cancel ends it for
// good (409 on further changes); request validation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Receiver } from "../support/receiver.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";
import { type TestGateway, eventually } from "../support/test-gateway.ts";
import { admin, deadHooks, dlqSize, replayState } from "./admin-fixtures.ts";

let rx: Receiver;
let gw: TestGateway;
let env: ReceiverGateway;

beforeAll(async () => {
  env = await startReceiverGateway({ fallback: 410, dispatch: { concurrency: 16 } });
  ({ rx, gw } = env);
});

afterAll(async () => {
  await env?.stop();
});

const moved = async (id: string): Promise<number> =>
  (await admin(gw, "GET", `/v1/replays/${id}`)).json.moved as number;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("replay control", () => {
  it("pauses, resumes and cancels within about a second", async () => {
    await deadHooks(gw, "src", 150);
    rx.setFallback(200);
    const sentBefore = rx.requests.length;
    const { json } = await admin(gw, "POST", "/v1/replays", {
      body: { filter: { source: "src" }, rate_per_s: 40 },
    });
    const id = json.id as string;
    await eventually(async () => (await moved(id)) >= 10, 10_000);

    const paused = await admin(gw, "PATCH", `/v1/replays/${id}`, { body: { state: "paused" } });
    expect(paused.status).toBe(200);
    expect(paused.json.state).toBe("paused");
    await sleep(1000);
    const whilePaused = await moved(id);
    await sleep(1000);
    expect(await moved(id)).toBe(whilePaused);
    expect(whilePaused).toBeLessThan(150);

    expect((await admin(gw, "PATCH", `/v1/replays/${id}`, { body: { state: "running" } })).json.state).toBe(
      "running",
    );
    await eventually(async () => (await moved(id)) > whilePaused, 1500, "the replay to move again");

    expect((await admin(gw, "PATCH", `/v1/replays/${id}`, { body: { state: "cancelled" } })).json.state).toBe(
      "cancelled",
    );
    const ended = await eventually(
      async () => {
        const r = (await admin(gw, "GET", `/v1/replays/${id}`)).json;
        return r.finished_at ? r : undefined;
      },
      1500,
      "the runner to notice the cancel",
    );
    expect(ended.state).toBe("cancelled");
    await sleep(600);
    const final = (await admin(gw, "GET", `/v1/replays/${id}`)).json;
    expect(final.moved).toBe(ended.moved);
    expect(final.moved).toBeLessThan(150);
    expect(final).toMatchObject({ matched: final.moved, failed: 0 });

    // What was not moved is still dead; what was moved was delivered once.
    await eventually(async () => (await dlqSize(gw)) === 150 - final.moved, 5000);
    await eventually(() => rx.requests.length - sentBefore === final.moved, 5000);

    const again = await admin(gw, "PATCH", `/v1/replays/${id}`, { body: { state: "running" } });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("conflict");

    // The rest can be replayed by a new replay.
    const rest = await admin(gw, "POST", "/v1/replays", {
      body: { filter: { source: "src" }, rate_per_s: 10_000 },
    });
    expect(await replayState(gw, rest.json.id, "done")).toMatchObject({
      moved: 150 - final.moved,
      failed: 0,
    });
    await eventually(() => rx.requests.length - sentBefore === 150, 5000, "every hook delivered");
  }, 60_000);

  it("a replay by ids moves only those entries, and hook ids stand for their dead sinks", async () => {
    rx.setFallback(410);
    const ids = await deadHooks(gw, "src", 4);
    rx.setFallback(200);
    const { json } = await admin(gw, "POST", "/v1/replays", {
      body: { filter: { ids: [ids[0], `${ids[1]}-out`] } },
    });
    expect(json.total_estimate).toBe(2);
    expect(await replayState(gw, json.id, "done")).toMatchObject({ matched: 2, moved: 2, failed: 0 });
    const left = (await admin(gw, "GET", "/v1/dlq")).json.data.map((e: { hook_id: string }) => e.hook_id);
    expect(left.sort()).toEqual([ids[2], ids[3]].sort());
    const rest = await admin(gw, "POST", "/v1/replays", { body: { filter: {} } });
    await replayState(gw, rest.json.id, "done");
  });

  it.each([
    ["a zero rate", { filter: {}, rate_per_s: 0 }],
    ["a rate over the maximum", { filter: {}, rate_per_s: 1_000_000 }],
    ["an unknown field", { filter: {}, speed: 3 }],
    ["an unknown filter field", { filter: { colour: "red" } }],
    ["a bad time", { filter: { since: "last tuesday" } }],
    ["a bad error class", { filter: { error_class: "fatal" } }],
    ["a bad id", { filter: { ids: ["nope"] } }],
    ["empty ids", { filter: { ids: [] } }],
  ])("POST /v1/replays rejects %s", async (_what, body) => {
    const res = await admin(gw, "POST", "/v1/replays", { body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
  });

  it("PATCH validates the state; unknown replays are 404", async () => {
    const { json } = await admin(gw, "POST", "/v1/replays", { body: { filter: { source: "none-here" } } });
    expect((await admin(gw, "PATCH", `/v1/replays/${json.id}`, { body: { state: "done" } })).status).toBe(
      400,
    );
    expect((await admin(gw, "PATCH", `/v1/replays/${json.id}`, { body: { state: "exploded" } })).status).toBe(
      400,
    );
    expect((await admin(gw, "GET", "/v1/replays/rp_00000000000000000000000000")).status).toBe(404);
    expect((await admin(gw, "GET", "/v1/replays/junk")).status).toBe(404);
  });
});

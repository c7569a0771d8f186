// How the sink paces reconnects and how soon it notices a silent broker.
import { describe, expect, it } from "vitest";
import { backoffMs } from "../../src/sinks/amqp/backoff.ts";
import { withDefaultHeartbeat } from "../../src/sinks/amqp/connection.ts";

describe("backoffMs", () => {
  it("doubles from 100 ms, caps at 5 s, and jitters by ±20%", () => {
    expect(backoffMs(1, () => 0.5)).toBe(100);
    expect(backoffMs(2, () => 0.5)).toBe(200);
    expect(backoffMs(3, () => 0.5)).toBe(400);
    expect(backoffMs(30, () => 0.5)).toBe(5000);
    expect(backoffMs(1, () => 0)).toBe(80);
    expect(backoffMs(1, () => 1)).toBe(120);
    expect(backoffMs(30, () => 1)).toBe(5000);
  });
});

describe("withDefaultHeartbeat", () => {
  it("asks for a 15 s heartbeat unless the URL sets one, keeping credentials and vhost intact", () => {
    expect(withDefaultHeartbeat("amqp://u:p%40ss@mq:5672/%2F")).toBe(
      "amqp://u:p%40ss@mq:5672/%2F?heartbeat=15",
    );
    expect(withDefaultHeartbeat("amqp://mq/v?heartbeat=5")).toBe("amqp://mq/v?heartbeat=5");
    expect(withDefaultHeartbeat("amqps://mq?frameMax=8192")).toBe("amqps://mq?frameMax=8192&heartbeat=15");
  });
});

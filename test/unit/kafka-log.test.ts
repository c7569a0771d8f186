// kafkajs's log lines reach the process logger at warn, with only safe fields, and the warning the
// sink's retry setting causes on purpose is demoted to debug.
import { logLevel } from "kafkajs";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { kafkaLogCreator } from "../../src/sinks/kafka/kafka-log.ts";

function capture() {
  const lines: any[] = [];
  const logger = pino({ level: "debug" }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { logger, lines };
}

const entry = (level: number, message: string, extra: Record<string, unknown> = {}) => ({
  namespace: "Producer",
  level,
  label: "ERROR",
  log: { timestamp: "t", message, ...extra },
});

describe("kafkaLogCreator", () => {
  it("writes kafkajs errors and warnings at warn, with the sink name and safe fields only", () => {
    const { logger, lines } = capture();
    const log = kafkaLogCreator(logger, "stream")(logLevel.WARN);
    log(
      entry(logLevel.ERROR, "Failed to send messages", {
        retryCount: 1,
        broker: "b:9092",
        payload: "xyz",
        sasl: { password: "p" },
      }),
    );
    log(entry(logLevel.WARN, "something odd"));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 40,
      sink: "stream",
      kafka_namespace: "Producer",
      retryCount: 1,
      broker: "b:9092",
    });
    expect(lines[0].msg).toBe("kafkajs: Failed to send messages");
    expect(lines[0]).not.toHaveProperty("payload");
    expect(lines[0]).not.toHaveProperty("sasl");
    expect(lines[1].level).toBe(40);
  });

  it("demotes the expected limited-retries warning to debug", () => {
    const { logger, lines } = capture();
    kafkaLogCreator(logger, "stream")(logLevel.WARN)(
      entry(logLevel.WARN, "Limiting retries for the idempotent producer may invalidate EoS guarantees"),
    );
    expect(lines.map((l) => l.level)).toEqual([20]);
  });
});

// What the logger censors and masks (src/observability/logger.ts): the keys pino's redact paths named,
// at a line's top level and one level down, in its fields and in a child's bindings; URL userinfo in
// strings at any depth. The fields passed in are never changed. And each line's time stamp.
import { expect, it, vi } from "vitest";
import { createLogger, scrubLogFields } from "../../src/observability/logger.ts";

function capture(): { lines: Record<string, unknown>[]; write(line: string): void } {
  const lines: Record<string, unknown>[] = [];
  return { lines, write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
}

it("censors the secret-bearing keys at the top and one level down, and masks URL userinfo", () => {
  const out = capture();
  const logger = createLogger({ level: "info", destination: out });
  const fields = {
    delivery_id: "d1",
    secret: "s1",
    token: "t1",
    body: "raw",
    headers: { authorization: "Bearer x", cookie: "c=1", "x-team": "billing" },
    sink: { url: "https://user:pw@example.com/in", password: "p", options: { secret: "deep" } },
    attempt: 2,
    replay_id: undefined,
  };
  logger.info(fields, "delivered");
  expect(out.lines[0]).toMatchObject({
    msg: "delivered",
    delivery_id: "d1",
    secret: "[redacted]",
    token: "[redacted]",
    body: "[redacted]",
    headers: { authorization: "[redacted]", cookie: "[redacted]", "x-team": "billing" },
    // Two levels down is past what is censored (as with the redact paths before); URLs are masked anywhere.
    sink: { url: "https://user:***@example.com/in", password: "[redacted]", options: { secret: "deep" } },
    attempt: 2,
  });
  expect(out.lines[0]).not.toHaveProperty("replay_id");
  expect(fields.headers.authorization).toBe("Bearer x");
  expect(fields.sink.url).toBe("https://user:pw@example.com/in");
});

it("scrubs a child's bindings too", () => {
  const out = capture();
  createLogger({ level: "info", destination: out })
    .child({ password: "p", target: "amqp://guest:guest@127.0.0.1:5672" })
    .info("up");
  expect(out.lines[0]).toMatchObject({ password: "[redacted]", target: "amqp://guest:***@127.0.0.1:5672" });
});

it("returns the very object when there is nothing to change", () => {
  const fields = { delivery_id: "d1", source: "bench", nested: { sink: "out" }, n: 1 };
  expect(scrubLogFields(fields)).toBe(fields);
});

it("stamps each line with the time it was written, formatted once per millisecond", () => {
  const out = capture();
  const logger = createLogger({ level: "info", destination: out });
  const at = [
    Date.UTC(2026, 11, 6, 12, 0, 0, 1),
    Date.UTC(2026, 11, 6, 12, 0, 0, 1),
    Date.UTC(2026, 11, 6, 12, 0, 0, 2),
  ];
  const now = vi.spyOn(Date, "now");
  try {
    for (const ms of at) {
      now.mockReturnValue(ms);
      logger.info("tick");
    }
  } finally {
    now.mockRestore();
  }
  expect(out.lines.map((l) => l.time)).toEqual(at.map((ms) => new Date(ms).toISOString()));
});

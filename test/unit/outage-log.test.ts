// Regression: during a Redis outage every parked delivery logged "attempt failed unexpectedly" at
// error level, once per job every two seconds: an outage of a minute with a few thousand jobs buried
// the log. An outage is one warning per interval (with a count of what it stood for); a real bug in an
// attempt is still an error per job.
import { Writable } from "node:stream";
import { pino } from "pino";
import { expect, it } from "vitest";
import { createAttemptRunner } from "../../src/delivery/attempt-runner.ts";
import type { DeliveryTarget, PreparedAttempt } from "../../src/delivery/delivery-target.ts";
import type { DeliveryTicket } from "../../src/delivery/delivery-ticket.ts";
import type { DeliveryStore } from "../../src/store/delivery-store.ts";

function capture() {
  const lines: { level: number; msg: string; suppressed?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  return { lines, logger: pino({ level: "info" }, stream) };
}

function runnerFailingWith(error: Error, clock: { t: number }, logger: pino.Logger) {
  const target: DeliveryTarget<PreparedAttempt> = {
    parentKey: () => "parent",
    parentFields: [],
    admit: () => Promise.reject(error),
    unadmit: () => Promise.resolve(),
    prepare: () => Promise.reject(new Error("not reached")),
    send: () => Promise.reject(new Error("not reached")),
  };
  return createAttemptRunner({
    target,
    ledger: {} as DeliveryStore,
    metrics: {
      attempt: () => undefined,
      delivered: () => undefined,
      deadLettered: () => undefined,
      fenced: () => undefined,
    },
    logger,
    leaseMs: 30_000,
    maxRetryAfterMs: 60_000,
    now: () => clock.t,
  });
}

const job = (n: number): DeliveryTicket => ({ id: `dl_${n}`, data: { p: `hk_${n}` }, attemptsStarted: 1 });

async function runMany(run: ReturnType<typeof createAttemptRunner>, clock: { t: number }, n: number) {
  for (let i = 0; i < n; i++) {
    // Handed back, to run again shortly: never failed, never dead.
    expect(await run(job(i), "token")).toMatchObject({ kind: "park" });
    clock.t += 100;
  }
}

it("regression: a Redis outage logs one warning per interval, not an error per parked job", async () => {
  const { lines, logger } = capture();
  const clock = { t: 1_000_000 };
  const run = runnerFailingWith(new Error("Connection is closed."), clock, logger);
  // 300 parked jobs over 30 s.
  await runMany(run, clock, 300);
  expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  const warnings = lines.filter((l) => l.msg === "delivery store unavailable; jobs parked");
  expect(warnings.length).toBe(3);
  expect(warnings.slice(1).map((w) => w.suppressed)).toEqual([99, 99]);
});

it("a bug in an attempt is still an error per job", async () => {
  const { lines, logger } = capture();
  const clock = { t: 1_000_000 };
  const run = runnerFailingWith(new TypeError("cannot read properties of undefined"), clock, logger);
  await runMany(run, clock, 5);
  expect(lines.filter((l) => l.level === 50 && l.msg === "attempt failed unexpectedly").length).toBe(5);
});

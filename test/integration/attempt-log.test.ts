// Every attempt logs one line an operator can grep: hook, source, tenant, sink, attempt, result and
// duration — and never the body or a secret.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import { sendHook, waitForState } from "../support/hooks.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";

let env: ReceiverGateway | undefined;
afterEach(async () => {
  await env?.stop();
});

it("logs one line per attempt with the hook's coordinates and no body or secret", async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  env = await startReceiverGateway({
    script: [503, 200],
    sink: { secret },
    gateway: { logger: pino({ level: "info" }, sink) },
  });
  const { gw } = env;
  const body = '{"card":"4242424242424242"}';
  const id = await sendHook(gw, "src", body);
  await waitForState(gw, id, "out", "delivered");
  await new Promise((r) => setTimeout(r, 50));

  const attempts = lines.filter((l) => l.hook_id === id && l.sink === "out" && "duration_ms" in l);
  expect(attempts).toHaveLength(2);
  expect(attempts.map((l) => [l.attempt, l.result])).toEqual([
    [1, "transient"],
    [2, "ok"],
  ]);
  for (const l of attempts) {
    expect(l).toMatchObject({ source: "src", sink: "out" });
    expect(typeof l.duration_ms).toBe("number");
  }
  const everything = JSON.stringify(lines);
  expect(everything).not.toContain("4242424242424242");
  expect(everything).not.toContain(secret);
});

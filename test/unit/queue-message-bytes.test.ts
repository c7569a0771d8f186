// The queue message's bytes come from a hand-written encoder (the base64 body written straight into the
// buffer), so consumers must not be able to tell it from JSON.stringify of the documented message: the
// same bytes for every shape a delivery can take, text that needs escaping included.
import { describe, expect, it } from "vitest";
import type { Delivery } from "../../src/domain/hook.ts";
import { buildQueueMessage, encodeQueueMessage } from "../../src/sinks/queue-message.ts";
import { delivery, hook } from "../support/kafka-sink-fixtures.ts";

const claim = {
  id: "hk_x",
  url: "http://127.0.0.1:8080/v1/claims/hk_x?sig=a%2Fb",
  sha256: "0".repeat(64),
  size: 9,
};

const cases: Record<string, Delivery> = {
  "a body that is not valid UTF-8": delivery(),
  "an empty body": delivery({ hook: hook({ body: Buffer.alloc(0) }) }),
  "a body whose base64 has padding and slashes": delivery({
    hook: hook({ body: Buffer.from([0xff, 0xfe, 0xfd, 0x3f]) }),
  }),
  "no tenant, no content type, a replay": delivery({
    hook: hook({ tenant: undefined, contentType: undefined }),
    replayId: "rp_01",
  }),
  "headers and names that JSON escapes, and text beyond ASCII": delivery({
    hook: hook({
      source: 'gïthub "quoted" \\ back',
      tenant: "ácme\u2028line",
      headers: { "x-emoji": "hook 🚀", "x-ctl": "a\u0001b\tc", "x-quote": '"' },
    }),
  }),
  "a claim below the limit (inline)": delivery({ claim }),
};

describe("encodeQueueMessage", () => {
  for (const [name, d] of Object.entries(cases)) {
    it(`writes the bytes of JSON.stringify(buildQueueMessage) for ${name}`, () => {
      const expected = Buffer.from(JSON.stringify(buildQueueMessage(d, 1_000_000)));
      expect(encodeQueueMessage(d, 1_000_000).equals(expected)).toBe(true);
      expect(
        encodeQueueMessage(d, undefined).equals(Buffer.from(JSON.stringify(buildQueueMessage(d, undefined)))),
      ).toBe(true);
    });
  }

  it("sends the claim instead of the body above the sink's limit, with the same bytes", () => {
    const d = delivery({ claim });
    const bytes = encodeQueueMessage(d, 1);
    expect(bytes.equals(Buffer.from(JSON.stringify(buildQueueMessage(d, 1))))).toBe(true);
    const parsed = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
    expect(parsed.claim).toBe(claim.url);
    expect(parsed).not.toHaveProperty("body_base64");
  });

  it("round-trips the body's bytes", () => {
    const d = delivery();
    const parsed = JSON.parse(encodeQueueMessage(d, undefined).toString("utf8")) as { body_base64: string };
    expect(Buffer.from(parsed.body_base64, "base64").equals(d.hook.body)).toBe(true);
  });
});

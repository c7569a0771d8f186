import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { HookRecord } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import { createLogSink } from "../../src/sinks/log/log-sink.ts";
import { sinkTraits } from "../../src/sinks/registry.ts";

function capture(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: "trace" }, stream), lines };
}

const body = Buffer.from('{"secret_field":"BODY-MARKER"}');
const hook: HookRecord = {
  id: newId("hk"),
  source: "github",
  tenant: undefined,
  receivedAt: Date.now(),
  contentType: "application/json",
  headers: { authorization: "Bearer HEADER-MARKER", "x-hub-signature-256": "sha256=SIG-MARKER" },
  body,
  sha256: createHash("sha256").update(body).digest("hex"),
  dedupKey: "d1",
  idempotencyKey: "-:github:d1",
  sinks: ["log"],
};

describe("log sink", () => {
  it("writes one line at the configured level identifying the hook, without body or header values", async () => {
    const { logger, lines } = capture();
    const sink = createLogSink("log", { type: "log", level: "warn" }, { logger, defaultClaimCheckBytes: 1 });
    const replayId = newId("rp");
    expect(
      await sink.deliver({ hook, sink: "log", attempt: 2, replayId, claim: undefined }, AbortSignal.abort()),
    ).toEqual({ ok: true });
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      sink: "log",
      hook_id: hook.id,
      source: "github",
      tenant: null,
      size: body.length,
      sha256: hook.sha256,
      content_type: "application/json",
      attempt: 2,
      replay_id: replayId,
    });
    const text = JSON.stringify(lines[0]);
    for (const marker of ["BODY-MARKER", "HEADER-MARKER", "SIG-MARKER"]) expect(text).not.toContain(marker);
  });

  it("is not durable, always inline, and describes no channel", async () => {
    const { logger } = capture();
    const sink = createLogSink("log", { type: "log", level: "info" }, { logger, defaultClaimCheckBytes: 1 });
    expect(sink).toMatchObject({ type: "log", inlineMaxBytes: undefined });
    expect(sinkTraits(sink.type)).toMatchObject({ durable: false, claimCheck: false, protocol: undefined });
    expect(sink.describe({ source: "github", tenant: undefined })).toBeUndefined();
    await expect(sink.close()).resolves.toBeUndefined();
  });
});

// Ingest hands a hook's job adds to Redis as soon as its persist is on the connection, without waiting
// for the persist's answer, and answers only once both are acknowledged; a duplicate's jobs are
// removed again; a failed persist never removes jobs (its write may have landed); a failed add marks
// the new hook's rows for recovery (as fanout does) and answers 503.
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { IngestError } from "../../src/ingest/ingest-error.ts";
import { type HookWriter, IngestService, type JobRow } from "../../src/ingest/ingest-service.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";

type Outcome = Awaited<ReturnType<HookWriter["persist"]>>;

/** A persist whose answer the test gives, after it has "sent" the write. */
function heldPersist() {
  let answer!: (o: Outcome | Error) => void;
  const marked: string[] = [];
  const writer: HookWriter = {
    persist: (_hook, _opts, onSent) =>
      new Promise<Outcome>((resolve, reject) => {
        answer = (o) => (o instanceof Error ? reject(o) : resolve(o));
        onSent?.();
      }),
    markEnqueueFailed: (id, error) => {
      marked.push(`${id} ${error}`);
      return Promise.resolve(true);
    },
    load: () => Promise.resolve({ deliveries: {} }),
  };
  return { writer, marked, answer: (o: Outcome | Error) => answer(o) };
}

function service(hooks: HookWriter, addFails = false) {
  const calls: string[] = [];
  const jobs = {
    enqueue: (rows: readonly JobRow[]) => {
      calls.push(`enqueue ${rows.map((r) => r.id).join(",")}`);
      return addFails ? Promise.reject(new Error("queue refused")) : Promise.resolve();
    },
    discard: (rows: readonly JobRow[]) => {
      calls.push(`discard ${rows.map((r) => r.id).join(",")}`);
      return Promise.resolve();
    },
  };
  const config = configSchema().parse({
    redis: { url: "redis://127.0.0.1:6379" },
    sinks: { s: { type: "http", url: "http://127.0.0.1:9/s" } },
    sources: { src: { verify: { type: "none" }, sinks: ["s"] } },
  });
  const ingest = new IngestService({
    config,
    quarantine: { add: () => Promise.resolve("kept" as const) },
    hooks,
    jobs,
    replicas: { wait: () => Promise.resolve(0) },
    depth: { isOver: () => false },
    metrics: new Metrics(),
    logger: silentLogger(),
  });
  const req = { source: "src", tenant: undefined, headers: {}, body: Buffer.from("{}") };
  return { calls, ingest: () => ingest.ingest(req) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("persist with jobs", () => {
  it("adds the jobs before the persist is answered, and answers after both", async () => {
    const persist = heldPersist();
    const { calls, ingest } = service(persist.writer);
    let done = false;
    const result = ingest().then((r) => ((done = true), r));
    await tick();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^enqueue dl_/);
    expect(done).toBe(false);
    persist.answer({ kind: "new" });
    expect((await result).status).toBe("accepted");
    expect(calls).toHaveLength(1);
  });

  it("removes a duplicate's jobs and answers with the first copy's id", async () => {
    const persist = heldPersist();
    const { calls, ingest } = service(persist.writer);
    const result = ingest();
    await tick();
    persist.answer({ kind: "duplicate", firstId: "hk_first" as HookId });
    expect(await result).toEqual({ status: "duplicate", id: "hk_first" });
    expect(calls.map((c) => c.split(" ")[0])).toEqual(["enqueue", "discard"]);
    expect(calls[1]?.split(" ")[1]).toBe(calls[0]?.split(" ")[1]);
  });

  it("leaves the jobs of a persist that failed (its write may have landed) and answers 503", async () => {
    const persist = heldPersist();
    const { calls, ingest } = service(persist.writer);
    const result = ingest();
    await tick();
    persist.answer(new Error("socket closed"));
    await expect(result).rejects.toSatisfy(
      (e: unknown) => e instanceof IngestError && e.code === "store_unavailable",
    );
    expect(calls.map((c) => c.split(" ")[0])).toEqual(["enqueue"]);
  });

  it("adds the jobs after the persist when the writer does not say it was sent", async () => {
    const calls: string[] = [];
    const writer: HookWriter = {
      persist: () => {
        calls.push("persist");
        return Promise.resolve({ kind: "new" });
      },
      markEnqueueFailed: () => Promise.resolve(true),
      load: () => Promise.resolve(undefined),
    };
    const svc = service(writer);
    expect((await svc.ingest()).status).toBe("accepted");
    expect([...calls, ...svc.calls.map((c) => c.split(" ")[0])]).toEqual(["persist", "enqueue"]);
  });

  it("marks a new hook's rows whose job add failed, for recovery to add at once, and answers 503", async () => {
    const persist = heldPersist();
    const { calls, ingest } = service(persist.writer, true);
    const result = ingest();
    await tick();
    persist.answer({ kind: "new" });
    await expect(result).rejects.toSatisfy(
      (e: unknown) => e instanceof IngestError && e.code === "store_unavailable",
    );
    const rows = calls[0]?.split(" ")[1]?.split(",") ?? [];
    expect(rows).toHaveLength(1);
    expect(persist.marked).toEqual(rows.map((id) => `${id} queue refused`));
  });

  it("marks nothing when the adds succeed", async () => {
    const persist = heldPersist();
    const { ingest } = service(persist.writer);
    const result = ingest();
    await tick();
    persist.answer({ kind: "new" });
    expect((await result).status).toBe("accepted");
    expect(persist.marked).toEqual([]);
  });
});

// An attempt's abort reaches what it started without a listener on its AbortSignal (attempt-abort.ts):
// the attempt hands sinks its AttemptAbort beside the signal, the HTTP send gives undici the emitter,
// and the queue sinks listen there too.
// Regression: undici given the AbortSignal itself added and removed an EventTarget listener per
// request, about 20 µs of CPU each, more than the rest of what the worker adds to an HTTP delivery.
import { getEventListeners } from "node:events";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { afterEach, expect, it } from "vitest";
import { safeAttempt } from "../../src/delivery/safe-deliver.ts";
import { AttemptAbort, onAbort } from "../../src/sinks/attempt-abort.ts";
import { httpTarget, sendHttp } from "../../src/sinks/http-send.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A server that takes requests and never answers; `closed` resolves when a request's socket closes. */
async function silentServer(): Promise<{ url: URL; received: Promise<void>; closed: Promise<void> }> {
  let onReceived!: () => void;
  let onClosed!: () => void;
  const received = new Promise<void>((resolve) => (onReceived = resolve));
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const server: Server = createServer((req) => {
    req.socket.on("close", onClosed);
    onReceived();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/in`), received, closed };
}

it("an attempt's HTTP send puts no listener on its AbortSignal, and the attempt's timeout still ends the request", async () => {
  const { url, received, closed } = await silentServer();
  const pool = new Pool(url.origin);
  cleanups.push(() => pool.destroy());
  let listeners = -1;
  const result = safeAttempt((signal, abort) => {
    void received.then(() => (listeners = getEventListeners(signal, "abort").length));
    return sendHttp({
      dispatcher: pool,
      target: httpTarget(url),
      method: "POST",
      headers: {},
      body: Buffer.from("{}"),
      signal,
      abort,
      timeoutMs: 10_000,
    });
  }, 300);
  expect(await result).toMatchObject({ ok: false, failure: { reason: "attempt timed out after 300 ms" } });
  expect(listeners).toBe(0);
  // The request itself was aborted, not left to its own 10 s timeouts.
  await closed;
});

it("onAbort hears an attempt's abort on its emitter, and a signal without one on the signal", () => {
  const heard: string[] = [];
  const signal = new AbortController().signal;
  const abort = new AttemptAbort();
  onAbort(signal, () => heard.push("attempt"), abort);
  const stop = onAbort(signal, () => heard.push("stopped listener"), abort);
  stop();
  expect(getEventListeners(signal, "abort")).toHaveLength(0);
  abort.abort(new Error("lease lost"));
  abort.abort(new Error("twice")); // an abort happens once
  expect(heard).toEqual(["attempt"]);
  expect([abort.aborted, abort.reason]).toEqual([true, new Error("lease lost")]);

  const foreign = new AbortController();
  onAbort(foreign.signal, () => heard.push("foreign"));
  foreign.abort();
  expect(heard).toEqual(["attempt", "foreign"]);
});

// SIGTERM as an operator sends it, with a slowloris client connected: the process still exits 0 promptly,
// because the request timeout keeps being enforced while the server drains.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, expect, it, onTestFinished } from "vitest";
import { REDIS_URL, deletePrefix, eventually } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

it("slowloris_holds_shutdown: a SIGTERMed gateway with a stalled client exits 0 within seconds", async () => {
  const port = await freePort();
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "sy-sigterm-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "switchyard.yaml");
  writeFileSync(
    file,
    [
      `redis: { url: "${REDIS_URL}", prefix: ${prefix} }`,
      `http: { port: ${port}, host: 127.0.0.1, request_timeout_ms: 1000, headers_timeout_ms: 500 }`,
      `sinks: { a: { type: http, url: "http://127.0.0.1:9/a" } }`,
      `sources: { open: { verify: { type: none }, sinks: [a] } }`,
    ].join("\n"),
  );
  const child = spawn(process.execPath, ["--import", "tsx", "workers/web.ts"], {
    env: { ...process.env, SWITCHYARD_CONFIG: file },
  });
  const redis = new Redis(REDIS_URL);
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  await eventually(() => stdout.includes("switchyard listening"), 20_000, "the gateway to listen");

  const socket = connect(port, "127.0.0.1");
  cleanups.push(() => void socket.destroy());
  socket.on("error", () => undefined);
  socket.resume();
  await new Promise<void>((r) => socket.once("connect", () => r()));
  socket.write("POST /webhooks/open HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
  await new Promise((r) => setTimeout(r, 200));

  const started = Date.now();
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(Date.now() - started).toBeLessThan(5000);
}, 40_000);

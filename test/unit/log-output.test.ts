// The log output's buffer (src/observability/log-output.ts), in process against a file: lines of a flush
// window go out together and in order, a stop does not wait the window out, lines past the bound are dropped and counted, the drop is told
// once the buffer has drained, and drained() waits for every accepted line.
import { mkdtempSync, openSync, readFileSync, rmSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { LogOutput } from "../../src/observability/log-output.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function fileOutput(maxBytes?: number, flushMs?: number): { output: LogOutput; read(): string } {
  const dir = mkdtempSync(join(tmpdir(), "sy-log-output-"));
  const file = join(dir, "out");
  const fd = openSync(file, "w");
  const output = new LogOutput({
    fd,
    ...(maxBytes ? { maxBytes } : {}),
    ...(flushMs === undefined ? {} : { flushMs }),
  });
  cleanups.push(() => {
    output.detach();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  return { output, read: () => readFileSync(file, "utf8") };
}

it("writes every accepted line, in order, before drained() resolves", async () => {
  const { output, read } = fileOutput();
  for (let i = 0; i < 1000; i++) output.write(`line ${i}\n`);
  expect(read()).toBe(""); // nothing is written in the turn that logs
  await output.drained();
  expect(read()).toBe(Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join(""));
  expect(output.droppedLines).toBe(0);
});

// Regression (log writes per turn of the loop): a busy worker turns its loop a few times per delivery,
// and a write per turn cost about three lines' worth of CPU in its hand-off to the thread pool.
it("gathers the lines of many turns into one write, and drained() does not wait out the window", async () => {
  const { output, read } = fileOutput(undefined, 5000);
  output.write("a\n");
  await new Promise((resolve) => setTimeout(resolve, 30));
  output.write("b\n");
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(read()).toBe(""); // both still wait for their batch
  const started = Date.now();
  await output.drained();
  expect(Date.now() - started).toBeLessThan(2000);
  expect(read()).toBe("a\nb\n");
});

it("drops what does not fit, counts it, and says so once drained", async () => {
  const { output, read } = fileOutput(100);
  const drops: number[] = [];
  const caughtUp: number[] = [];
  output.onDrop((n) => drops.push(n));
  output.onCaughtUp((n) => {
    caughtUp.push(n);
    output.write(`dropped ${n}\n`);
  });
  const line = `${"x".repeat(29)}\n`; // 30 characters: three fit in 100
  for (let i = 0; i < 5; i++) expect(output.write(line)).toBe(i < 3);
  expect(output.droppedLines).toBe(2);
  expect(drops).toEqual([1, 1]);
  await output.drained();
  expect(caughtUp).toEqual([2]);
  expect(read()).toBe(`${line.repeat(3)}dropped 2\n`);
  // Room again: later lines are kept.
  output.write(line);
  await output.drained();
  expect(read()).toBe(`${line.repeat(3)}dropped 2\n${line}`);
});

it("refuses a buffer size that is not positive", () => {
  expect(() => new LogOutput({ maxBytes: 0 })).toThrow(/log buffer size must be positive/);
});

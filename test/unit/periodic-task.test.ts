// PeriodicTask: a body run every interval and never two at once (a run that outlasts the interval makes
// the ticks meanwhile skip), started at once when asked, and stopped only after the run in progress.
import { afterEach, expect, it, vi } from "vitest";
import { PeriodicTask } from "../../src/recovery/periodic-task.ts";

afterEach(() => {
  vi.useRealTimers();
});

it("runs at once with startNow, then every interval, skipping ticks while a run is still going", async () => {
  vi.useFakeTimers();
  let runs = 0;
  let release: (() => void) | undefined;
  const task = new PeriodicTask(async () => {
    runs++;
    if (runs === 2) await new Promise<void>((r) => (release = r));
  }, 100);
  await task.startNow();
  expect(runs).toBe(1);
  await vi.advanceTimersByTimeAsync(100);
  expect(runs).toBe(2); // the second run hangs until released
  await vi.advanceTimersByTimeAsync(300);
  expect(runs).toBe(2); // three ticks skipped, none overlapping
  release?.();
  await vi.advanceTimersByTimeAsync(100);
  expect(runs).toBe(3);
  await task.stop();
  await vi.advanceTimersByTimeAsync(500);
  expect(runs).toBe(3);
});

it("stop waits for the run in progress", async () => {
  vi.useFakeTimers();
  let finished = false;
  const task = new PeriodicTask(async () => {
    await new Promise((r) => setTimeout(r, 50));
    finished = true;
  }, 100);
  task.start();
  await vi.advanceTimersByTimeAsync(100);
  const stopped = task.stop();
  expect(finished).toBe(false);
  await vi.advanceTimersByTimeAsync(50);
  await stopped;
  expect(finished).toBe(true);
});

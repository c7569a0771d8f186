// The BullMQ adapter of an attempt's ending: the runner says done, park or dead, and only here does that
// become moveToDelayed + DelayedError (no attempt of BullMQ's spent) or UnrecoverableError (failed now).
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import { expect, it } from "vitest";
import { DONE, dead, park } from "../../src/domain/attempt-end.ts";
import { carryOut } from "../../src/queue/bullmq/control.ts";

function fakeJob() {
  const moved: { until: number; token: string | undefined }[] = [];
  const job = {
    moveToDelayed: (until: number, token?: string) => {
      moved.push({ until, token });
      return Promise.resolve();
    },
  } as unknown as Job;
  return { job, moved };
}

it("done leaves the job to complete", async () => {
  const { job, moved } = fakeJob();
  await expect(carryOut(job, "tok", DONE)).resolves.toBeUndefined();
  expect(moved).toEqual([]);
});

it("park moves the job to delayed at the whole ms asked for, with the worker's token, then throws DelayedError", async () => {
  const { job, moved } = fakeJob();
  const err = await carryOut(job, "tok", park(1_700_000_000_000.6, "breaker open for sink a")).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DelayedError);
  expect((err as Error).message).toBe("breaker open for sink a");
  expect(moved).toEqual([{ until: 1_700_000_000_001, token: "tok" }]);
});

it("dead fails the job for good with the reason alone (no server paths in Bull Board)", async () => {
  const { job, moved } = fakeJob();
  const err = await carryOut(job, "tok", dead("permanent: HTTP 422")).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnrecoverableError);
  expect((err as Error).stack).toBe("UnrecoverableError: permanent: HTTP 422");
  expect(moved).toEqual([]);
});

it("a park that cannot be written fails the job (recovery retries it while its row is live)", async () => {
  const job = {
    moveToDelayed: () => Promise.reject(new Error("Missing lock for job dl_1")),
  } as unknown as Job;
  await expect(carryOut(job, "tok", park(1, "retry"))).rejects.toThrow("Missing lock");
});

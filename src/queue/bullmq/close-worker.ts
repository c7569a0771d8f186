// A BullMQ Worker opens a blocking connection of its own (a duplicate of the one it is given) and checks
// the Redis version on it while starting. Closed before that check has its answer, BullMQ drops the
// connection, removes the listener the check's failure is reported to, and the failure ("Connection is
// closed.") surfaces as an unhandled rejection: a process stopped right after it started could exit 1.
// Every worker is closed through here, which lets the start finish first.

/** What closing needs of a BullMQ Worker, whatever its job types. */
export interface ClosableWorker {
  waitUntilReady(): Promise<unknown>;
  close(force?: boolean): Promise<void>;
}

/**
 * How long a close waits for the worker's start. With Redis answering it takes milliseconds; with
 * Redis away the start cannot finish, and the close goes ahead (the check's failure is then only
 * logged: a stopping process keeps its exit code).
 */
const START_WAIT_MS = 2000;

/** Close `worker` (see BullMQ's `Worker.close(force)`) once it has finished starting, or the wait ran out. */
export async function closeWorker(
  worker: ClosableWorker,
  force = false,
  startWaitMs = START_WAIT_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, startWaitMs);
    timer.unref();
  });
  // A start that fails is the close's business no more than one that succeeds.
  await Promise.race([worker.waitUntilReady().then(noop, noop), outOfTime]);
  clearTimeout(timer);
  await worker.close(force);
}

function noop(): void {}

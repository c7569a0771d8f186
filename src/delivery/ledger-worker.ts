// The worker of a ledger queue (docs/ledger-dispatch.md): fills its free lanes from one pop call, runs
// each delivery through the attempt runner, and carries out how it ended on the queue (a park is a
// `later` entry; done and dead need nothing, the ledger has recorded them). Idle, it blocks on the
// queue's doorbell until work arrives or the earliest wait is due, so an idle worker costs Redis one
// blocking call per wait, not a poll per lane; held (its sink's breaker open), it pops nothing.
import type { AttemptEnd } from "../domain/attempt-end.ts";
import type { LedgerQueue } from "../queue/ledger/ledger-queue.ts";
import type { QueueEntry } from "../queue/ledger/queue-entry.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { AttemptRun } from "./attempt-runner.ts";
import type { DeliveryTicket } from "./delivery-ticket.ts";

/** The longest an idle worker blocks before it pops again, whatever it was told. */
const MAX_WAIT_MS = 5000;
/** After a failed pop or park (Redis away), the pause before the next try. */
const BACKOFF_MS = 1000;

export interface LedgerWorkerOptions {
  readonly queue: LedgerQueue;
  /** A connection of this worker's own: the doorbell wait holds it. */
  readonly blocking: RedisClient;
  /** Attempts this worker runs at once. */
  readonly lanes: number;
  readonly run: AttemptRun;
  /** A pop or park that failed; the worker carries on after a pause. */
  readonly onError: (err: Error) => void;
  /**
   * Until when (ms) the queue's target takes nothing: a sink whose breaker is open, read from the
   * process's copy of it. Meanwhile the worker pops nothing, so an outage costs no work per waiting
   * delivery (the runner's own admission still decides each attempt, and hands out the probe).
   */
  readonly heldUntil?: () => number | undefined;
  readonly now?: () => number;
  readonly maxWaitMs?: number;
}

export class LedgerWorker {
  private running = 0;
  private closing = false;
  /** Paused for the hold (not a backoff): what wake() cuts short. */
  private holding = false;
  private laneFreed: (() => void) | undefined;
  private wakeFromPause: (() => void) | undefined;
  private readonly loop: Promise<void>;
  private readonly settled = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly opts: LedgerWorkerOptions) {
    if (!Number.isInteger(opts.lanes) || opts.lanes < 1) throw new RangeError(`lanes must be >= 1`);
    this.now = opts.now ?? Date.now;
    this.loop = this.fill();
  }

  /** Attempts running now. */
  get busy(): number {
    return this.running;
  }

  /**
   * Look at the hold again now: its target's breaker changed (closed, or opened again by a failed
   * probe), so a hold until the probe's lease ran out may be over, or shorter. No-op when not held.
   */
  wake(): void {
    if (this.holding) this.wakeFromPause?.();
  }

  /** Stop taking deliveries and wait for the running attempts to end (the pool's deadline bounds it). */
  async close(): Promise<void> {
    this.closing = true;
    this.laneFreed?.();
    this.wakeFromPause?.();
    // A doorbell wait in progress ends at its timeout, or now when the connection goes.
    this.opts.blocking.disconnect();
    await this.loop;
    await Promise.all([...this.settled]);
  }

  private async fill(): Promise<void> {
    const { queue, lanes } = this.opts;
    while (!this.closing) {
      const free = lanes - this.running;
      if (free === 0) {
        await new Promise<void>((resolve) => (this.laneFreed = resolve));
        this.laneFreed = undefined;
        continue;
      }
      const held = this.opts.heldUntil?.();
      if (held !== undefined && held > this.now()) {
        this.holding = true;
        await this.pause(Math.min(held - this.now(), this.opts.maxWaitMs ?? MAX_WAIT_MS));
        this.holding = false;
        continue;
      }
      try {
        const popped = await queue.pop(free, this.now());
        if (this.closing) {
          // Taken as the worker closed: back to the queue, to run now.
          for (const entry of popped.entries) await queue.park(entry, this.now());
          return;
        }
        for (const entry of popped.entries) this.start(entry);
        // Drained, it still has a free lane (it took fewer than it had): it waits for the doorbell
        // rather than popping an empty queue again. A busy worker never holds the doorbell's one ring.
        if (popped.drained) await this.idle(popped.nextDueAt);
      } catch (err) {
        if (this.closing) return;
        this.opts.onError(err instanceof Error ? err : new Error(String(err)));
        await this.pause(BACKOFF_MS);
      }
    }
  }

  /** Wait `ms`, or less if the worker closes meanwhile. */
  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeFromPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeFromPause = undefined;
  }

  private async idle(nextDueAt: number | undefined): Promise<void> {
    const cap = this.opts.maxWaitMs ?? MAX_WAIT_MS;
    const wait = nextDueAt === undefined ? cap : Math.min(cap, nextDueAt - this.now());
    if (wait > 0) await this.opts.queue.waitForWork(this.opts.blocking, wait);
  }

  private start(entry: QueueEntry): void {
    // Entries are written with their rows, in one script: a missing row is never one "not written yet",
    // so the ticket never claims to be a first run (the runner's one extra look is BullMQ's).
    const ticket: DeliveryTicket = {
      id: entry.id,
      data: entry.data,
      attemptsStarted: 2,
      processedOn: this.now(),
    };
    this.running++;
    const done: Promise<void> = this.opts
      .run(ticket)
      .then((end) => this.carryOut(entry, end))
      .catch((err: unknown) => this.opts.onError(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        this.running--;
        this.settled.delete(done);
        this.laneFreed?.();
      });
    this.settled.add(done);
  }

  private async carryOut(entry: QueueEntry, end: AttemptEnd): Promise<void> {
    if (end.kind !== "park") return;
    // A park that cannot be written leaves the row in its watch set: recovery queues it again.
    await this.opts.queue.park(entry, end.until);
  }
}

// Where a process's log lines go (stdout), written without stalling the event loop and without growing
// memory behind a slow reader. pino's default destination already writes on libuv's thread pool, but
// holds whatever a reader has not taken without bound (a collector that stalls for a minute at a
// delivery's line per hook is megabytes of heap). Here a line is appended to a buffer; what gathers
// over a few milliseconds (`flushMs`, or sooner once `flushBytes` wait) goes out in one write on the
// thread pool, so a full pipe blocks that thread, never the loop. Batching by time, not by turn of the
// loop: a write costs about three lines' worth of CPU in its hand-off to the thread pool and back, and a
// busy worker turns its loop a few times per delivery, so a write per turn cost more than the lines.
// The window is 50 ms: at a worker's 2,500 lines/s, 10 ms windows (26 lines a write) left the writes
// at about a third of what the delivery line cost; 50 ms cut the line's cost by about a quarter
// (a paced micro-benchmark: 16-22 against 11-16 µs a line), and a line still shows within 50 ms.
//
// The buffer is bounded: while a reader is slower than the process logs, lines beyond `maxBytes` are
// dropped, counted (`droppedLines`, the switchyard_log_lines_dropped_total metric) and reported in a
// warning once the reader has caught up; the process never blocks on its log. At a stop nothing is
// dropped: `drained()` waits until every accepted line has been written, and if the process exits
// without it (process.exit on a fatal error) an exit hook writes what is left synchronously.
import { write, writeSync } from "node:fs";

export const DEFAULT_LOG_BUFFER_BYTES = 8 * 1024 * 1024;
/** How long an accepted line may wait for company before it is written. */
export const DEFAULT_LOG_FLUSH_MS = 50;
/** Once this much waits, it is written at the next turn of the loop, whatever the time. */
const FLUSH_BYTES = 64 * 1024;
/** How long a write that met a full non-blocking pipe waits before trying again. */
const RETRY_MS = 10;

export interface LogOutputOptions {
  /** File descriptor to write to (default 1, stdout). */
  readonly fd?: number;
  /** Most characters held while the reader is behind; lines beyond are dropped (default 8 MiB). */
  readonly maxBytes?: number;
  /** Most milliseconds a line waits to be written with others (default 50; 0: every turn of the loop). */
  readonly flushMs?: number;
}

type DropListener = (lines: number) => void;

export class LogOutput {
  private readonly fd: number;
  private readonly maxBytes: number;
  private readonly flushMs: number;
  /** Accepted lines not yet handed to a write. */
  private pending: string[] = [];
  /** Characters in `pending` and in the write in flight. */
  private held = 0;
  /** The bytes of the write in flight (what is left of them after a short write). */
  private inFlight: Buffer | undefined;
  private scheduled = false;
  /** A timed flush is set (`flushMs` after the first line it will take). */
  private timed: NodeJS.Timeout | undefined;
  /** The write in flight met a full pipe and waits for a retry (not on the thread pool). */
  private retrying = false;
  /** Nothing can be written any more (the reader has gone: EPIPE). */
  private closed = false;
  private dropped = 0;
  private droppedUnreported = 0;
  private readonly dropListeners: DropListener[] = [];
  private readonly caughtUpListeners: DropListener[] = [];
  private readonly idle: (() => void)[] = [];
  private readonly onExit = (): void => this.flushSync();

  constructor(opts: LogOutputOptions = {}) {
    this.fd = opts.fd ?? 1;
    this.maxBytes = opts.maxBytes ?? DEFAULT_LOG_BUFFER_BYTES;
    this.flushMs = opts.flushMs ?? DEFAULT_LOG_FLUSH_MS;
    if (!(this.maxBytes > 0)) throw new Error(`log buffer size must be positive, not ${this.maxBytes}`);
    process.on("exit", this.onExit);
  }

  /** pino's destination interface: one serialised line, newline included. */
  write(line: string): boolean {
    if (this.closed) return false;
    if (this.held + line.length > this.maxBytes) {
      this.dropped++;
      this.droppedUnreported++;
      for (const listener of this.dropListeners) listener(1);
      return false;
    }
    this.pending.push(line);
    this.held += line.length;
    if (this.inFlight === undefined) this.schedule();
    return true;
  }

  /** Write what is pending soon: at the timed flush, or next turn once enough waits (or no delay is set). */
  private schedule(): void {
    if (this.scheduled) return;
    if (this.flushMs > 0 && this.held < FLUSH_BYTES && this.idle.length === 0) {
      // Unref'd: a pending line never keeps a process alive; the exit hook writes it.
      this.timed ??= setTimeout(() => this.flushNow(), this.flushMs).unref();
      return;
    }
    this.flushNow();
  }

  /** Start writing what is pending at the next turn of the loop. */
  private flushNow(): void {
    if (this.timed !== undefined) {
      clearTimeout(this.timed);
      this.timed = undefined;
    }
    if (this.scheduled || this.inFlight !== undefined) return;
    this.scheduled = true;
    setImmediate(() => this.writeNext());
  }

  /** Lines dropped since the start because the buffer was full. */
  get droppedLines(): number {
    return this.dropped;
  }

  /** Told of every dropped line as it is dropped (a metric counts them). */
  onDrop(listener: DropListener): void {
    this.dropListeners.push(listener);
  }

  /** Told, once the buffer has room again, how many lines were dropped since it last said so. */
  onCaughtUp(listener: DropListener): void {
    this.caughtUpListeners.push(listener);
  }

  /** Resolves once every line accepted so far has been written (or can never be: the reader is gone). */
  drained(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    // Whoever waits (a stop) should not wait out the batching delay.
    this.flushNow();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Stop watching for the process's exit (tests that make many outputs in one process). */
  detach(): void {
    process.off("exit", this.onExit);
  }

  private isIdle(): boolean {
    return (
      this.closed ||
      (this.inFlight === undefined &&
        this.pending.length === 0 &&
        !this.scheduled &&
        this.timed === undefined)
    );
  }

  private writeNext(): void {
    this.scheduled = false;
    if (this.inFlight === undefined) {
      if (this.pending.length === 0) return this.settle();
      this.inFlight = Buffer.from(this.pending.join(""));
      this.pending = [];
    }
    const chunk = this.inFlight;
    write(this.fd, chunk, 0, chunk.length, null, (err, written) => {
      if (err) return this.failed(err, chunk);
      const rest = chunk.subarray(written);
      if (rest.length > 0) {
        this.inFlight = rest;
        return this.writeNext();
      }
      this.inFlight = undefined;
      this.held = this.pendingChars();
      this.afterWrite();
    });
  }

  /** A write is done: what came meanwhile waits for its batch, unless a stop waits for the drain. */
  private afterWrite(): void {
    if (this.pending.length === 0) return this.settle();
    if (this.idle.length > 0) return this.writeNext();
    this.schedule();
  }

  private failed(err: NodeJS.ErrnoException, chunk: Buffer): void {
    if (err.code === "EAGAIN" || err.code === "EBUSY") {
      // A non-blocking pipe is full: try again shortly, the loop meanwhile free.
      this.retrying = true;
      setTimeout(() => {
        this.retrying = false;
        this.writeNext();
      }, RETRY_MS).unref();
      return;
    }
    // EPIPE: nobody reads any more. Anything else: the lines of this write cannot be written.
    if (err.code === "EPIPE") this.closed = true;
    const lost = countLines(chunk);
    this.dropped += lost;
    for (const listener of this.dropListeners) listener(lost);
    this.inFlight = undefined;
    this.held = this.pendingChars();
    if (this.closed) {
      this.pending = [];
      this.held = 0;
    }
    this.writeNext();
  }

  /** Nothing left to write: report drops once there is room, and wake whoever waits for the drain. */
  private settle(): void {
    if (this.droppedUnreported > 0 && !this.closed) {
      const lines = this.droppedUnreported;
      this.droppedUnreported = 0;
      for (const listener of this.caughtUpListeners) listener(lines);
    }
    if (!this.isIdle()) return; // the report above was itself a line
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private pendingChars(): number {
    let n = 0;
    for (const line of this.pending) n += line.length;
    return n;
  }

  /** At exit, with no loop left to wait on: write whatever is held, blocking until it is written. */
  private flushSync(): void {
    if (this.closed) return;
    // A write already handed to the thread pool completes there (Node joins those threads at exit);
    // what it had not taken yet is written here, after it. One waiting for a retry is written first.
    const waiting = this.retrying && this.inFlight ? [this.inFlight] : [];
    let rest = Buffer.concat([...waiting, Buffer.from(this.pending.join(""))]);
    this.pending = [];
    this.inFlight = undefined;
    while (rest.length > 0) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "EAGAIN" && code !== "EBUSY") return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
  }
}

function countLines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return Math.max(n, 1);
}

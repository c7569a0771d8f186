// The chaos run's senders, open loop at a steady rate whatever the gateway's latency: a provider posting
// Standard Webhooks-signed hooks (signed with the reference library, retrying a 5xx, 429 or dropped
// connection with the same webhook-id as providers do), and an application publishing outbound events
// (retrying with the same event id, which makes re-publishing idempotent). Only a 2xx counts as
// accepted; every refusal is tallied by its reason.
import { Webhook } from "standardwebhooks";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One try at sending an item: accepted, or refused and maybe worth retrying. */
export type Try =
  { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly retry: boolean };

export interface SteadyOptions {
  readonly ratePerS: number;
  /** Tries per item, the first included. */
  readonly maxTries: number;
  readonly retryDelayMs: number;
  /** Items in progress (tries and the pauses between them) above which the sender skips a tick. */
  readonly maxInFlight: number;
  readonly requestTimeoutMs: number;
}

export const DEFAULT_STEADY: Omit<SteadyOptions, "ratePerS"> = {
  // About half a minute of retries: longer than a Redis crash and its AOF replay take here.
  maxTries: 30,
  retryDelayMs: 1000,
  maxInFlight: 500,
  requestTimeoutMs: 5000,
};

/** Items sent at a steady rate, each tried until accepted, refused for good, or out of tries. */
export class SteadySender {
  /** Items started. */
  started = 0;
  /** Items that got a 2xx, and of them those refused at least once first (a 503 while Redis failed). */
  acceptedItems = 0;
  acceptedAfterRefusal = 0;
  /** Ticks skipped because `maxInFlight` items were still in progress. */
  skipped = 0;
  readonly refusals = new Map<string, number>();
  /** When each refused try was answered (ms since the epoch). */
  readonly refusedAt: number[] = [];
  /** Items that never got a 2xx. */
  readonly givenUp: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly prefix: string,
    private readonly opts: SteadyOptions,
    private readonly tryOnce: (seq: string, signal: AbortSignal) => Promise<Try>,
  ) {}

  start(): void {
    const periodMs = 1000 / this.opts.ratePerS;
    const t0 = Date.now();
    // Catch up on ticks a busy event loop delayed, so the rate holds on a loaded machine.
    const tick = (): void => {
      const due = Math.floor((Date.now() - t0) / periodMs) + 1;
      while (this.started + this.skipped < due) this.launch();
    };
    this.timer = setInterval(tick, Math.max(5, Math.floor(periodMs)));
  }

  private launch(): void {
    if (this.inFlight.size >= this.opts.maxInFlight) {
      this.skipped += 1;
      return;
    }
    const seq = `${this.prefix}-${++this.started}`;
    const task = this.send(seq).finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  private async send(seq: string): Promise<void> {
    for (let n = 1; n <= this.opts.maxTries; n++) {
      let result: Try;
      try {
        result = await this.tryOnce(seq, AbortSignal.timeout(this.opts.requestTimeoutMs));
      } catch (err) {
        const name = (err as Error).name === "TimeoutError" ? "timeout" : "connection error";
        result = { ok: false, reason: name, retry: true };
      }
      if (result.ok) {
        this.acceptedItems += 1;
        if (n > 1) this.acceptedAfterRefusal += 1;
        return;
      }
      this.refusals.set(result.reason, (this.refusals.get(result.reason) ?? 0) + 1);
      this.refusedAt.push(Date.now());
      if (!result.retry) break;
      if (n < this.opts.maxTries) await sleep(this.opts.retryDelayMs);
    }
    this.givenUp.push(seq);
  }

  /** Stop starting items; wait for those in progress to be accepted or given up. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}

function refusal(status: number): Try {
  return { ok: false, reason: String(status), retry: status === 429 || status >= 500 };
}

/** A provider posting signed hooks to `/webhooks/<source>`; `accepted` maps seq → hook id. */
export function inboundSender(opts: {
  readonly url: string;
  readonly source: string;
  readonly secret: string;
  readonly prefix: string;
  readonly steady: SteadyOptions;
  readonly bodyBytes?: number;
}): { sender: SteadySender; accepted: Map<string, string> } {
  const accepted = new Map<string, string>();
  const signer = new Webhook(opts.secret);
  const sender = new SteadySender(opts.prefix, opts.steady, async (seq, signal) => {
    const pad = "x".repeat(Math.max(0, (opts.bodyBytes ?? 512) - seq.length - 20));
    const body = JSON.stringify({ seq, pad });
    const now = new Date();
    const res = await fetch(`${opts.url}/webhooks/${opts.source}`, {
      method: "POST",
      body,
      signal,
      headers: {
        "content-type": "application/json",
        "webhook-id": seq,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signer.sign(seq, now, body),
      },
    });
    const json = (await res.json().catch(() => ({}))) as { id?: string };
    if (res.status !== 200 && res.status !== 202) return refusal(res.status);
    if (json.id === undefined) return { ok: false, reason: `${res.status} without id`, retry: false };
    accepted.set(seq, json.id);
    return { ok: true };
  });
  return { sender, accepted };
}

/** The statuses POST /v1/events answers per endpoint that mean the row exists. */
const ROW_WRITTEN = new Set(["created", "duplicate", "enqueue_failed"]);

/**
 * An application publishing `chaos.tick` events; `accepted` maps `<endpoint label>/<event id>` → event
 * id for every endpoint row the answer reported written, `endpointErrors` counts the others.
 */
export function outboundPublisher(opts: {
  readonly url: string;
  readonly token: string;
  readonly prefix: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly steady: SteadyOptions;
}): { sender: SteadySender; accepted: Map<string, string>; endpointErrors: () => number } {
  const accepted = new Map<string, string>();
  let endpointErrors = 0;
  const sender = new SteadySender(opts.prefix, opts.steady, async (seq, signal) => {
    const res = await fetch(`${opts.url}/v1/events`, {
      method: "POST",
      signal,
      headers: { "content-type": "application/json", authorization: `Bearer ${opts.token}` },
      body: JSON.stringify({ id: seq, type: "chaos.tick", payload: { seq } }),
    });
    const json = (await res.json().catch(() => ({}))) as {
      results?: { endpoint_id: string; status: string }[];
    };
    if (res.status !== 202) return refusal(res.status);
    for (const r of json.results ?? []) {
      const label = opts.labels.get(r.endpoint_id);
      if (label !== undefined && ROW_WRITTEN.has(r.status)) accepted.set(`${label}/${seq}`, seq);
      else endpointErrors += 1;
    }
    return { ok: true };
  });
  return { sender, accepted, endpointErrors: () => endpointErrors };
}

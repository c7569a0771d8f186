// The transport under the typed client: one request per attempt with its own timeout, and a 503 (the
// gateway's "not now": store unavailable, shutting down) retried after the Retry-After it names. Every
// attempt sends a copy of the request, so a body can be sent again.
import { SwitchyardConnectionError, retryAfterSeconds } from "./errors.ts";

export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after a 503, at most (default 3; 0 turns retrying off). */
  readonly retries?: number;
  /** The longest wait between attempts, whatever Retry-After says (default 30 s). */
  readonly maxDelayMs?: number;
  /** Each attempt's timeout (default 15 s). */
  readonly timeoutMs?: number;
  /** How to wait (tests pass a fake clock). */
  readonly sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `fetch` with per-attempt timeouts and 503 retries; network failures become SwitchyardConnectionError. */
export function retryingFetch(fetch: FetchLike, opts: RetryOptions = {}): FetchLike {
  const retries = opts.retries ?? 3;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const sleep = opts.sleep ?? wait;
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
      let response: Response;
      try {
        response = await fetch(new Request(request.clone(), { signal }));
      } catch (err) {
        if (request.signal.aborted) throw err;
        throw new SwitchyardConnectionError(new URL(request.url).origin, err);
      }
      if (response.status !== 503 || attempt >= retries) return response;
      // Without Retry-After: 0.5 s, 1 s, 2 s, …
      const delayS = retryAfterSeconds(response.headers) ?? 0.5 * 2 ** attempt;
      await response.body?.cancel();
      await sleep(Math.min(delayS * 1000, maxDelayMs));
    }
  };
}

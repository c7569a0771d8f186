// Telling a Redis outage apart from a bug. ioredis reports an unreachable or closed connection, a
// command that timed out or ran out of retries, and a refused write (a read-only replica, OOM, a
// loading server) as errors of its own; all of them mean "try again later", never "the request is bad".
import { StoreUnavailable } from "../domain/errors.ts";

const OUTAGE_MESSAGES =
  /Connection is closed|enableOfflineQueue|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Command timed out|Reached the max retries|READONLY|LOADING|OOM command not allowed|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|Too many Cluster redirections/;

/** The error as a StoreUnavailable when it is a Redis outage, else undefined. */
export function asStoreUnavailable(err: unknown): StoreUnavailable | undefined {
  if (err instanceof StoreUnavailable) return err;
  if (!(err instanceof Error)) return undefined;
  const outage =
    err.name === "MaxRetriesPerRequestError" ||
    err.name === "ClusterAllFailedError" ||
    OUTAGE_MESSAGES.test(err.message);
  return outage ? new StoreUnavailable(err) : undefined;
}

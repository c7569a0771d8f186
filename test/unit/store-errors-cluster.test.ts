// Which Redis Cluster errors count as an outage (503 store_unavailable with Retry-After, the caller
// retries) rather than a bug (500). During a master failover ioredis gives up after its redirections
// with "Too many Cluster redirections. Last error: …": the chaos suite's cluster mode saw POST
// /v1/events answered 500 "internal error" (logged "unhandled error in request") when the last error
// was a MOVED to the master just killed (regression: spent redirections are an outage whatever the
// last error was).
import { describe, expect, it } from "vitest";
import { StoreUnavailable } from "../../src/domain/errors.ts";
import { asStoreUnavailable } from "../../src/store/store-errors.ts";

/** The error ioredis's Cluster rejects a command with once its redirections are spent. */
const exhausted = (last: string): Error => new Error(`Too many Cluster redirections. Last error: ${last}`);

describe("a Redis Cluster failover is an outage", () => {
  it("when the last error was the cluster down or a closed connection", () => {
    expect(asStoreUnavailable(exhausted("ReplyError: CLUSTERDOWN The cluster is down"))).toBeInstanceOf(
      StoreUnavailable,
    );
    expect(asStoreUnavailable(exhausted("Error: Connection is closed."))).toBeInstanceOf(StoreUnavailable);
  });

  it("regression: when the last error was a MOVED to the master that was killed (it answered 500)", () => {
    expect(asStoreUnavailable(exhausted("ReplyError: MOVED 4706 127.0.0.1:40421"))).toBeInstanceOf(
      StoreUnavailable,
    );
  });
});

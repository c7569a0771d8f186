// The shape of one API handler of the TEST broker: it reads the request body and returns the response
// body, synchronously, so responses leave a connection in request order as Kafka promises.
import type { BrokerState } from "../state.ts";
import type { Reader } from "../wire.ts";

export interface RequestContext {
  readonly version: number;
  readonly state: BrokerState;
  /** Where clients reach this broker; Metadata advertises it. */
  readonly host: string;
  readonly port: number;
}

export interface HandlerResult {
  /** `undefined`: send no response (a Produce with acks=0). */
  readonly body: Buffer | undefined;
  /** Hold the response this long (an injected fault). */
  readonly delayMs: number;
}

export type Handler = (req: Reader, ctx: RequestContext) => HandlerResult;

/** An API and the versions the broker advertises for it (and accepts). */
export interface ApiRange {
  readonly key: number;
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
}

export interface ApiSpec extends ApiRange {
  readonly handle: Handler;
}

// Why an inbound hook was not accepted. The API maps each code to its SPEC status in one place.

export type IngestErrorCode =
  | "unknown_source"
  | "verification_failed"
  | "payload_too_large"
  | "store_unavailable"
  | "overloaded"
  | "shutting_down";

export class IngestError extends Error {
  constructor(
    readonly code: IngestErrorCode,
    message: string,
    /** Seconds the provider should wait before retrying, for 429/503. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = "IngestError";
  }
}

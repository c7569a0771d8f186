// The one error type use cases throw when a request cannot be served, with a code the HTTP layer maps
// to a status in one table (src/api/error-status.ts). Anything else a route meets is a bug: an opaque 500.
export type DomainErrorCode =
  | "unknown_source"
  | "verification_failed"
  | "payload_too_large"
  | "store_unavailable"
  | "overloaded"
  | "shutting_down";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Seconds the caller should wait before retrying (429/503). */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** How long a caller should wait after the store was unavailable. */
export const STORE_RETRY_AFTER_S = 5;

/** Redis could not take or answer a command: every route answers this the same way (503). */
export class StoreUnavailable extends DomainError {
  constructor(cause: unknown) {
    super("store_unavailable", "the store is unavailable", STORE_RETRY_AFTER_S);
    this.cause = cause;
  }
}

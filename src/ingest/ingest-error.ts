// Why an inbound hook was not accepted: a domain error, mapped to its status in the API's one table.
import { DomainError, type DomainErrorCode } from "../domain/errors.ts";

export type IngestErrorCode = DomainErrorCode;

export class IngestError extends DomainError {
  constructor(code: IngestErrorCode, message: string, retryAfterS?: number) {
    super(code, message, retryAfterS);
    this.name = "IngestError";
  }
}

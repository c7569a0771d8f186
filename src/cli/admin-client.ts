// The CLI's way to the admin API: the @switchyard/client package (packages/client, compiled into this
// package's build), with the failures an operator can act on (server unreachable, token refused, bad
// input) turned into clear messages and exit codes.
import { type SwitchyardClient, createSwitchyardClient } from "../../packages/client/src/client.ts";
import { SwitchyardApiError, SwitchyardConnectionError } from "../../packages/client/src/errors.ts";
import type { FetchLike } from "../../packages/client/src/retrying-fetch.ts";
import { EXIT } from "./options.ts";

export const DEFAULT_URL = "http://127.0.0.1:3000";

/** A failure to show the user as is, with the process exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The fetch the CLI can be given (tests pass a fake one): a URL and an init, like the global fetch. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface AdminClientOptions {
  readonly url?: string;
  readonly token?: string;
  readonly fetch?: Fetch;
  readonly timeoutMs?: number;
}

/** The client's requests sent through a `Fetch`. */
function through(fetch: Fetch): FetchLike {
  return async (request) => {
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    return fetch(request.url, {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      signal: request.signal,
      ...(body !== "" ? { body } : {}),
    });
  };
}

export class AdminClient {
  readonly url: string;
  private readonly token: string | undefined;
  private readonly client: SwitchyardClient;

  constructor(opts: AdminClientOptions = {}) {
    this.url = (opts.url ?? DEFAULT_URL).replace(/\/+$/, "");
    this.token = opts.token === "" ? undefined : opts.token;
    this.client = createSwitchyardClient({
      baseUrl: this.url,
      ...(this.token !== undefined ? { token: this.token } : {}),
      ...(opts.fetch ? { fetch: through(opts.fetch) } : {}),
      timeoutMs: opts.timeoutMs ?? 15_000,
      // An operator at a terminal waits a little for a gateway that says "not now", not minutes.
      maxDelayMs: 5_000,
    });
  }

  /** Run `call` with the client; any failure becomes a CliError with its exit code. */
  async run<T>(call: (client: SwitchyardClient) => Promise<T>): Promise<T> {
    try {
      return await call(this.client);
    } catch (err) {
      throw this.cliError(err);
    }
  }

  private cliError(err: unknown): unknown {
    if (err instanceof SwitchyardConnectionError)
      return new CliError(
        `cannot reach the Switchyard admin API at ${this.url} (${err.reason}). Is the gateway running? Set SWITCHYARD_URL to its address.`,
        EXIT.unavailable,
      );
    if (!(err instanceof SwitchyardApiError)) return err;
    switch (err.status) {
      case 401:
        return new CliError(
          this.token === undefined
            ? "the admin API needs a token: set SWITCHYARD_ADMIN_TOKEN"
            : "the admin API refused the token in SWITCHYARD_ADMIN_TOKEN (401)",
          EXIT.noperm,
        );
      case 400:
        return new CliError(`invalid request: ${err.message}`, EXIT.usage);
      case 404:
        return new CliError(`not found: ${err.message}`, EXIT.failure);
      case 409:
        return new CliError(`refused: ${err.message}`, EXIT.failure);
      default:
        return new CliError(`the admin API answered ${err.status}: ${err.message}`, EXIT.failure);
    }
  }
}

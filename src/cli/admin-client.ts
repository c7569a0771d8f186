// The CLI's view of the admin API: one authenticated JSON call, and the failures an operator can act
// on (server unreachable, token refused, bad input) turned into clear messages and exit codes.
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

/** `?a=1&b=2` from the defined values of `params` (empty when none). */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface AdminClientOptions {
  readonly url?: string;
  readonly token?: string;
  readonly fetch?: Fetch;
  readonly timeoutMs?: number;
}

function apiMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
  return typeof error?.message === "string" ? error.message : undefined;
}

export class AdminClient {
  readonly url: string;
  private readonly token: string | undefined;
  private readonly fetch: Fetch;
  private readonly timeoutMs: number;

  constructor(opts: AdminClientOptions = {}) {
    this.url = (opts.url ?? DEFAULT_URL).replace(/\/+$/, "");
    this.token = opts.token === "" ? undefined : opts.token;
    this.fetch = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  /** Call `method path` and return the parsed JSON answer; throws CliError on any failure. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    // The API refuses any write that does not declare JSON, body-less ones (DELETE, rotate-secret) too.
    if (body !== undefined || !["GET", "HEAD"].includes(method.toUpperCase()))
      headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await this.fetch(`${this.url}${path}`, {
        method,
        headers,
        signal: AbortSignal.timeout(this.timeoutMs),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new CliError(
        `cannot reach the Switchyard admin API at ${this.url} (${why}). Is the gateway running? Set SWITCHYARD_URL to its address.`,
        EXIT.unavailable,
      );
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.ok) return json as T;
    const detail = apiMessage(json) ?? (text.slice(0, 200) || res.statusText);
    switch (res.status) {
      case 401:
        throw new CliError(
          this.token === undefined
            ? "the admin API needs a token: set SWITCHYARD_ADMIN_TOKEN"
            : "the admin API refused the token in SWITCHYARD_ADMIN_TOKEN (401)",
          EXIT.noperm,
        );
      case 400:
        throw new CliError(`invalid request: ${detail}`, EXIT.usage);
      case 404:
        throw new CliError(`not found: ${detail}`, EXIT.failure);
      case 409:
        throw new CliError(`refused: ${detail}`, EXIT.failure);
      default:
        throw new CliError(`the admin API answered ${res.status}: ${detail}`, EXIT.failure);
    }
  }
}

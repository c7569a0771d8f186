// How a portal page reads its data: through the same /v1 handlers the portal's script calls, in process,
// with the request's own session cookie, so a page shows exactly what the API lets that session see (its
// tenant only: another tenant's id is a 404 here as there).
import { ApiError } from "../api-error.ts";
import { PORTAL_API_PATH } from "../portal-auth.ts";

/** Answers a request to `/portal/api/v1/…` as the portal's API does. */
export type PortalApi = (req: Request) => Promise<Response>;

export class PortalData {
  constructor(
    private readonly api: PortalApi,
    private readonly request: Request,
  ) {}

  /** GET `/v1/…` as this session; a refusal is thrown as the API's own error (404 stays 404). */
  async get<T>(path: string): Promise<T> {
    const url = new URL(`${PORTAL_API_PATH}${path}`, this.request.url);
    const headers = new Headers({ accept: "application/json" });
    const cookie = this.request.headers.get("cookie");
    if (cookie !== null) headers.set("cookie", cookie);
    const res = await this.api(new Request(url, { headers }));
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (!res.ok) {
      // 400 (a bad filter in the page's query), 401 and 404 keep their meaning; anything else is the
      // gateway's fault, not the page's.
      const status = res.status === 400 || res.status === 401 || res.status === 404 ? res.status : 502;
      throw new ApiError(
        status,
        status === 400
          ? "invalid_request"
          : status === 401
            ? "unauthorized"
            : status === 404
              ? "not_found"
              : "internal",
        body.error?.message ?? `GET ${path} answered ${res.status}`,
      );
    }
    return body as T;
  }
}

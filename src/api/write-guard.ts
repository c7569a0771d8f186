// The cross-site request refusal for state-changing admin requests. A browser attaches the credentials it
// holds for the gateway (the dashboard's basic auth) to requests other sites start, and a page can send a
// form or a no-cors fetch (POST with a text/plain, urlencoded or multipart body) without asking first.
// So a write must come from the gateway's own pages, a configured origin or a non-browser client, and must
// declare JSON: a page that wants to send JSON to another origin needs a CORS preflight, which the
// gateway grants only to `admin.allowed_origins`.
import { ApiError } from "./api-error.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Which writes must declare `Content-Type: application/json`. */
export type JsonRule =
  /** Every POST, PUT, PATCH and DELETE: the JSON admin API. */
  | "every-write"
  /**
   * Every POST (the one method a form or a no-cors fetch can send), and any other write that declares a
   * content type: the dashboard sends its body-less actions (retry, pause, …) as PUTs without one.
   */
  | "post-or-declared";

/** Where state-changing requests may come from besides the gateway's own pages. */
export class SitePolicy {
  private readonly allowed: ReadonlySet<string>;

  /** `allowedOrigins` are exact origins (`https://ops.example.com`); `publicUrl`'s origin is the gateway's own. */
  constructor(allowedOrigins: readonly string[] = [], publicUrl?: string) {
    this.allowed = new Set([...allowedOrigins, ...(publicUrl ? [new URL(publicUrl).origin] : [])]);
  }

  /** Did a browser send `req` from a page of another site (or another origin of this one)? */
  isForeign(req: Request): boolean {
    const origin = req.headers.get("origin");
    const fetchSite = req.headers.get("sec-fetch-site");
    if (origin !== null) {
      if (this.allowed.has(origin) || origin === new URL(req.url).origin) return false;
      // Behind a proxy that terminates TLS or renames the host the origins differ, but the browser, which
      // alone sets Sec-Fetch-Site, still knows the page is the gateway's own.
      return fetchSite !== "same-origin";
    }
    // No Origin: a non-browser client, or an old browser's same-origin request.
    return fetchSite === "cross-site" || fetchSite === "same-site";
  }
}

function isJson(contentType: string | null): boolean {
  const media = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  return media === "application/json";
}

/** Throw 403 for a write from a foreign page and 415 for a write that is not JSON; reads pass. */
export function guardWrite(req: Request, sites: SitePolicy, rule: JsonRule): void {
  if (SAFE_METHODS.has(req.method)) return;
  if (sites.isForeign(req))
    throw new ApiError(
      403,
      "forbidden",
      "state-changing requests from another site are refused (its origin is not in admin.allowed_origins)",
    );
  const contentType = req.headers.get("content-type");
  const mustDeclare = rule === "every-write" || req.method === "POST" || contentType !== null;
  if (mustDeclare && !isJson(contentType))
    throw new ApiError(
      415,
      "unsupported_media_type",
      "state-changing requests must be Content-Type: application/json",
    );
}

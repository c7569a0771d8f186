// The cross-site guard's decisions, request by request: which pages count as the gateway's own, and
// which writes must declare JSON on each surface.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/api-error.ts";
import { type JsonRule, SitePolicy, guardWrite } from "../../src/api/write-guard.ts";

const req = (method: string, headers: Record<string, string> = {}): Request =>
  new Request("http://gw.internal:3000/v1/endpoints", { method, headers });

/** The status guardWrite answers with, or 0 when it lets the request through. */
function verdict(request: Request, sites: SitePolicy, rule: JsonRule = "every-write"): number {
  try {
    guardWrite(request, sites, rule);
    return 0;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

describe("SitePolicy", () => {
  const sites = new SitePolicy(["https://ops.example.com"], "https://hooks.example.com/base");

  it("takes the gateway's own origin, its public URL's and the configured ones", () => {
    for (const origin of ["http://gw.internal:3000", "https://hooks.example.com", "https://ops.example.com"])
      expect(sites.isForeign(req("POST", { origin })), origin).toBe(false);
  });

  it("refuses any other origin, the opaque `null` one included", () => {
    for (const origin of [
      "https://evil.example",
      "http://gw.internal:3001",
      "https://ops.example.com.evil",
      "null",
    ])
      expect(sites.isForeign(req("POST", { origin })), origin).toBe(true);
  });

  it("believes a browser's Sec-Fetch-Site: same-origin behind a proxy that changed scheme or host", () => {
    expect(
      sites.isForeign(req("POST", { origin: "https://gw.internal", "sec-fetch-site": "same-origin" })),
    ).toBe(false);
    expect(
      sites.isForeign(req("POST", { origin: "https://evil.example", "sec-fetch-site": "cross-site" })),
    ).toBe(true);
  });

  it("without Origin, refuses cross-site and same-site fetches and lets non-browser clients through", () => {
    expect(sites.isForeign(req("POST", { "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(sites.isForeign(req("POST", { "sec-fetch-site": "same-site" }))).toBe(true);
    expect(sites.isForeign(req("POST", { "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(sites.isForeign(req("POST", { "sec-fetch-site": "none" }))).toBe(false);
    expect(sites.isForeign(req("POST"))).toBe(false);
  });
});

describe("guardWrite", () => {
  const sites = new SitePolicy();

  it("lets reads through whatever their origin or content type", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"])
      expect(verdict(req(method, { origin: "https://evil.example" }), sites)).toBe(0);
  });

  it("answers 403 before 415 for a foreign form post", () => {
    expect(
      verdict(req("POST", { origin: "https://evil.example", "content-type": "text/plain" }), sites),
    ).toBe(403);
  });

  it("on the JSON API, wants JSON on every write, body or not", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(verdict(req(method), sites), method).toBe(415);
      expect(verdict(req(method, { "content-type": "application/x-www-form-urlencoded" }), sites)).toBe(415);
      expect(verdict(req(method, { "content-type": "application/json-seq" }), sites)).toBe(415);
      expect(verdict(req(method, JSON_TYPE), sites), method).toBe(0);
      expect(verdict(req(method, { "content-type": "Application/JSON" }), sites), method).toBe(0);
    }
  });

  it("on the dashboard, wants JSON on every POST and on any write that declares a type", () => {
    const rule = "post-or-declared";
    expect(verdict(req("POST"), sites, rule)).toBe(415);
    expect(verdict(req("POST", { "content-type": "multipart/form-data; boundary=x" }), sites, rule)).toBe(
      415,
    );
    expect(verdict(req("POST", JSON_TYPE), sites, rule)).toBe(0);
    expect(verdict(req("PUT"), sites, rule)).toBe(0);
    expect(verdict(req("PUT", { "content-type": "text/plain" }), sites, rule)).toBe(415);
    expect(verdict(req("PATCH", JSON_TYPE), sites, rule)).toBe(0);
  });
});

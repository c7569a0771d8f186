// What a group of declared routes (src/api/contract/) runs on: `apiGroup` is the OpenAPIHono app whose
// failed validations are a 400 naming every field at fault, and `cappedJson` reads a JSON body within its
// cap (413 as soon as it is crossed, 400 if it is not JSON) before the route's zod validator parses it.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env, MiddlewareHandler } from "hono";
import type { ZodError } from "zod";
import { ApiError } from "./api-error.ts";
import { readBodyCapped } from "./read-body.ts";

/**
 * Middleware: read the body (at most `maxBytes`) and hand its text to the validator that follows; an
 * empty body is `{}` when `emptyIsObject` (requests whose fields are all optional).
 */
export function cappedJson<E extends Env = Env>(
  maxBytes: number,
  opts: { emptyIsObject?: boolean } = {},
): MiddlewareHandler<E> {
  return async (c, next) => {
    let text = (await readBodyCapped(c.req.raw, maxBytes)).toString("utf8");
    if (opts.emptyIsObject === true && text.trim() === "") text = "{}";
    try {
      JSON.parse(text);
    } catch {
      throw new ApiError(400, "invalid_request", "the body must be JSON");
    }
    // The validator reads the body through c.req, which takes it from this cache instead of the stream.
    // (Hono types the cache by the bodies it holds, but keeps their promises.)
    (c.req.bodyCache as Record<string, Promise<unknown>>).text = Promise.resolve(text);
    await next();
  };
}

/** Every issue (up to 10) as `path: message`, joined by "; ". */
export function formatIssues(issues: ZodError["issues"]): string {
  return issues
    .slice(0, 10)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      if (issue.code === "unrecognized_keys")
        return `${issue.keys.map((key) => (path ? `${path}.${key}` : key)).join(", ")}: unknown field`;
      if (issue.code === "invalid_type" && issue.message.endsWith("received undefined"))
        return `${path}: required`;
      return `${path || "body"}: ${issue.message}`;
    })
    .join("; ");
}

/** The default hook of every API group: a failed validation is a 400 invalid_request. */
export function validationHook(result: { success: true } | { success: false; error: ZodError }): undefined {
  if (!result.success) throw new ApiError(400, "invalid_request", formatIssues(result.error.issues));
  return undefined;
}

/** An app for a group of declared routes, mounted by createApp like any other. */
export function apiGroup<E extends Env = Env>(): OpenAPIHono<E> {
  return new OpenAPIHono<E>({ defaultHook: validationHook });
}

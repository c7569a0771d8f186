// The portal's script and stylesheet, read once at boot from files beside this module (the build copies
// them into dist/), and served by the gateway itself: the page loads nothing from anywhere else.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export interface PortalAsset {
  readonly body: string;
  readonly contentType: string;
  /** A strong ETag of the content, so a reload revalidates instead of downloading again. */
  readonly etag: string;
}

function load(files: readonly string[], contentType: string): PortalAsset {
  const body = files
    .map((file) => readFileSync(new URL(`./assets/${file}`, import.meta.url), "utf8"))
    .join("\n");
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return { body, contentType, etag };
}

export const PORTAL_ASSETS: Readonly<Record<string, PortalAsset>> = {
  "app.js": load(["portal.js"], "text/javascript; charset=utf-8"),
  "app.css": load(["portal.css", "portal-controls.css"], "text/css; charset=utf-8"),
};

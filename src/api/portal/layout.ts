// The frame of every portal page: landmarks (banner, navigation, main), a skip link, a live region for
// what the script reports, the session's tenant and expiry, and the only two resources the page loads.
import type { PortalGrant } from "../../store/portal-session-store.ts";
import { type Html, type HtmlValue, html } from "./html.ts";

export interface PageParts {
  readonly title: string;
  readonly grant?: PortalGrant;
  /** Links above the title, from the top: [label, href]. */
  readonly crumbs?: readonly (readonly [string, string])[];
  readonly body: HtmlValue;
  /** Reload the page after this many ms (a running replay's progress). */
  readonly refreshMs?: number;
}

export function page(parts: PageParts): Html {
  const { grant } = parts;
  const crumbs = parts.crumbs ?? [];
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${parts.title} · Switchyard portal</title>
        <link rel="stylesheet" href="/portal/app.css" />
        <script src="/portal/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a href="/portal">Switchyard portal</a>
          ${
            grant
              ? html`<span class="who"
                    >Tenant <strong>${grant.tenant}</strong>${
                      grant.readOnly ? html` · <span class="badge">read-only</span>` : ""
                    }
                    · session ends ${new Date(grant.expiresAt).toISOString().replace("T", " ").slice(0, 16)}
                    UTC</span
                  >
                  <form
                    data-api="/portal/session"
                    data-method="DELETE"
                    data-body="none"
                    data-then="go"
                    data-next="/portal"
                  >
                    <button type="submit">Sign out</button>
                  </form>`
              : ""
          }
        </header>
        <main id="main" tabindex="-1" ${parts.refreshMs ? html` data-refresh-ms="${parts.refreshMs}"` : ""}>
          ${
            crumbs.length > 0
              ? html`<nav class="crumbs" aria-label="Breadcrumb">
                  ${crumbs.map(
                    ([label, href], i) => html`${i > 0 ? " › " : ""}<a href="${href}">${label}</a>`,
                  )}
                </nav>`
              : ""
          }
          <h1>${parts.title}</h1>
          <div id="flash" class="notice" role="status" aria-live="polite" tabindex="-1" hidden></div>
          ${parts.body}
        </main>
      </body>
    </html> `;
}

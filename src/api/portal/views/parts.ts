// Small pieces every portal view uses: times, state badges, and the one-button forms the script sends.
import { type Html, type HtmlValue, html } from "../html.ts";

/** An ISO time as `2026-01-02 10:11:12 UTC`, in a <time> element. */
export function when(isoTime: string | undefined): Html {
  if (isoTime === undefined) return html`<span class="muted">—</span>`;
  return html`<time datetime="${isoTime}">${isoTime.replace("T", " ").slice(0, 19)} UTC</time>`;
}

const STATE_CLASS: Record<string, string> = {
  delivered: "ok",
  enabled: "ok",
  closed: "ok",
  done: "ok",
  dead: "bad",
  disabled: "bad",
  open: "bad",
  failed: "bad",
  cancelled: "muted",
  retrying: "warn",
  failing: "warn",
  half_open: "warn",
};

export function badge(state: string): Html {
  return html`<span class="badge ${STATE_CLASS[state] ?? ""}">${state}</span>`;
}

export function statusCode(code: number | undefined): Html {
  if (code === undefined) return html`<span class="muted">—</span>`;
  return html`<span class="${code >= 200 && code < 300 ? "ok" : "bad"}">${code}</span>`;
}

export interface ActionForm {
  readonly api: string;
  readonly method?: string;
  readonly label: string;
  readonly confirm?: string;
  /** reload (default) | go | secret | message */
  readonly then?: string;
  readonly next?: string;
  readonly message?: string;
  readonly danger?: boolean;
  readonly fields?: HtmlValue;
}

/** A form the script sends as JSON to the portal's API; `fields` carry its body (none: `{}`). */
export function actionForm(a: ActionForm): Html {
  return html`<form
    data-api="${a.api}"
    data-method="${a.method ?? "POST"}"
    ${a.confirm ? html` data-confirm="${a.confirm}"` : ""}
    data-then="${a.then ?? "reload"}"
    ${a.next ? html` data-next="${a.next}"` : ""}${a.message ? html` data-message="${a.message}"` : ""}
    class="inline"
  >
    ${a.fields}<button type="submit" ${a.danger ? html` class="danger"` : ""}>${a.label}</button>
    <p class="alert" role="alert"></p>
  </form>`;
}

/** The read-only session's note in place of the controls it may not use. */
export const READ_ONLY_NOTE = html`<p class="muted">
  This session is read-only: it shows everything and changes nothing.
</p>`;

/** Where the page's script reaches the API. */
export const api = (path: string): string => `/portal/api${path}`;

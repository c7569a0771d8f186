// Small pieces every portal view uses: times, state badges, and the one-button forms the script sends.
import { Html, type HtmlValue, html } from "../html.ts";

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

/** A cell: its content, or its content with a class (`url`, `excerpt`: long text that may wrap anywhere). */
export type Cell = HtmlValue | { readonly content: HtmlValue; readonly className: string };

const isClassed = (c: Cell): c is { readonly content: HtmlValue; readonly className: string } =>
  typeof c === "object" && c !== null && !(c instanceof Html) && !Array.isArray(c);

/**
 * Every table of the portal: a caption, column heads, one row of cells per item, in a box that scrolls
 * sideways when wide (and becomes cards on a phone).
 */
export function dataTable(
  caption: string,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
): Html {
  const cell = (c: Cell): Html =>
    isClassed(c) ? html`<td class="${c.className}">${c.content}</td>` : html`<td>${c}</td>`;
  return html`<div class="table-wrap">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${columns.map((name) => html`<th scope="col">${name}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr>
              ${row.map(cell)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** A delivery's id as a link to its page. */
export const deliveryLink = (id: string): Html => html`<a href="/portal/deliveries/${id}">${id}</a>`;

/** A fact: its label and value; left out when false or undefined. */
export type Fact = readonly [string, HtmlValue] | false | undefined;

/** Labelled facts in a panel grid (an endpoint's settings, a delivery's state, a replay's counts). */
export function facts(items: readonly Fact[]): Html {
  return html`<dl class="grid panel">
    ${items.map((f) =>
      f
        ? html`<div>
            <dt>${f[0]}</dt>
            <dd>${f[1]}</dd>
          </div>`
        : "",
    )}
  </dl>`;
}

// One endpoint: its settings and health, what may be done to it (edit, disable/enable, rotate the
// secret, send a test event, delete, recover its failed deliveries since a time), and its deliveries.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { DeliveryJson, EndpointJson, Page } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { endpointState } from "./endpoint-list.ts";
import { secretPanel } from "./endpoint-form.ts";
import { type HealthJson, healthPanel } from "./health.ts";
import {
  READ_ONLY_NOTE,
  actionForm,
  api,
  badge,
  dataTable,
  deliveryLink,
  facts,
  statusCode,
  when,
} from "./parts.ts";

export interface DeliveryQuery {
  readonly state?: string;
  readonly since?: string;
  readonly cursor?: string;
}

const STATES = ["", "pending", "retrying", "delivered", "dead"];

function actions(e: EndpointJson): Html {
  const self = api(`/v1/endpoints/${e.id}`);
  return html`<div class="actions">
      <a class="button" href="/portal/endpoints/${e.id}/edit">Edit</a>
      ${actionForm({
        api: self,
        method: "PATCH",
        label: e.disabled ? "Enable" : "Disable",
        fields: html`<input
          type="hidden"
          name="disabled"
          data-kind="bool-value"
          value="${e.disabled ? "false" : "true"}"
        />`,
      })}
      ${actionForm({ api: `${self}/rotate-secret`, label: "Rotate secret", then: "secret", confirm: "Rotate the signing secret? Deliveries are signed with the new one from now on." })}
      ${actionForm({ api: `${self}/test-event`, label: "Send test event", then: "message", message: "A test event was sent to this endpoint." })}
      ${actionForm({ api: self, method: "DELETE", label: "Delete", danger: true, then: "go", next: "/portal", confirm: "Delete this endpoint? Its deliveries stop." })}
    </div>
    ${secretPanel(`/portal/endpoints/${e.id}`)}`;
}

function recoverForm(e: EndpointJson): Html {
  return html`<section aria-labelledby="recover-heading">
    <h2 id="recover-heading">Recover failed deliveries</h2>
    <form class="inline" data-api="${api("/v1/replays")}" data-then="go" data-next="/portal/replays/{id}">
      <input type="hidden" name="filter.endpoint" data-kind="text" value="${e.id}" />
      <label
        >Failed since <input name="filter.since" type="datetime-local" required data-kind="datetime"
      /></label>
      <button type="submit">Replay every failed delivery since then</button>
      <p class="alert" role="alert"></p>
    </form>
  </section>`;
}

function deliveriesTable(e: EndpointJson, deliveries: Page<DeliveryJson>, q: DeliveryQuery): Html {
  const rows =
    deliveries.data.length === 0
      ? html`<p class="muted">No deliveries${q.state ? html` in state ${q.state}` : ""}.</p>`
      : dataTable(
          "Deliveries, newest first",
          ["Delivery", "Event", "State", "Attempts", "Last status", "Last attempt"],
          deliveries.data.map((d) => [
            deliveryLink(d.delivery_id),
            d.event_id
              ? html`<a href="/portal/events/${encodeURIComponent(d.event_id)}"
                  >${d.event_type ?? d.event_id}</a
                >`
              : "—",
            badge(d.state),
            d.attempts,
            statusCode(d.last_status_code),
            when(d.last_attempt_at),
          ]),
        );
  const next = deliveries.next_cursor
    ? html`<p>
        <a
          href="/portal/endpoints/${e.id}?${new URLSearchParams({
            ...(q.state ? { state: q.state } : {}),
            ...(q.since ? { since: q.since } : {}),
            cursor: deliveries.next_cursor,
          }).toString()}"
          >Older deliveries</a
        >
      </p>`
    : "";
  return html`<section aria-labelledby="deliveries-heading">
    <h2 id="deliveries-heading">Deliveries</h2>
    <form class="inline" data-filter action="/portal/endpoints/${e.id}">
      <label
        >State
        <select name="state">
          ${STATES.map(
            (s) => html`<option value="${s}" ${q.state === s ? html` selected` : ""}>${s || "any"}</option>`,
          )}
        </select></label
      >
      <label>Since <input name="since" type="datetime-local" data-kind="datetime" /></label>
      <button type="submit">Show</button>
    </form>
    ${rows}${next}
  </section>`;
}

export function endpointDetailPage(
  grant: PortalGrant,
  e: EndpointJson,
  health: HealthJson,
  deliveries: Page<DeliveryJson>,
  q: DeliveryQuery,
): Html {
  const headers = Object.entries(e.headers);
  return page({
    title: e.description ?? e.url,
    grant,
    crumbs: [["Endpoints", "/portal"]],
    body: html`${facts([
        ["Id", e.id],
        ["URL", e.url],
        [
          "State",
          html`${badge(endpointState(e))}${e.disabled_reason ? html` <span class="muted">${e.disabled_reason}</span>` : ""}`,
        ],
        ["Event types", e.event_types.join(", ")],
        ["Rate limit", html`${e.rate_limit_per_s === undefined ? "none" : `${e.rate_limit_per_s}/s`}`],
        [
          "Custom headers",
          html`${headers.length === 0 ? "none" : headers.map(([k, v]) => html`${k}: ${v}<br />`)}`,
        ],
      ])}
      ${grant.readOnly ? READ_ONLY_NOTE : actions(e)}
      <section aria-labelledby="health-heading">
        <h2 id="health-heading">Health</h2>
        ${healthPanel(health)}
      </section>
      ${deliveriesTable(e, deliveries, q)} ${grant.readOnly ? "" : recoverForm(e)}`,
  });
}

// One delivery and every attempt at it: when, how long, the status code, the error class and reason,
// the start of the response; a dead delivery can be replayed from here.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { DeliveryJson } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { actionForm, api, badge, dataTable, statusCode, when, facts } from "./parts.ts";

export interface AttemptJson {
  readonly at: string;
  readonly duration_ms?: number;
  readonly status_code?: number;
  readonly error_class?: string;
  readonly reason?: string;
  readonly response_excerpt?: string;
}

/** GET /v1/deliveries/:id: the row, its attempt count, and its attempts (newest last, bounded). */
export interface DeliveryDetailJson extends Omit<DeliveryJson, "attempts"> {
  readonly attempt_count: number;
  readonly attempts: readonly AttemptJson[];
  /** The endpoint (outbound) or sink (inbound) it goes to. */
  readonly target: string;
  readonly direction: string;
}

function attemptsTable(attempts: readonly AttemptJson[]): Html {
  if (attempts.length === 0) return html`<p class="muted">No attempt yet.</p>`;
  const none = html`<span class="muted">—</span>`;
  return dataTable(
    "Attempts, oldest first (the newest few are kept)",
    ["#", "At", "Duration", "Status", "Error", "Response"],
    attempts.map((a, i) => [
      i + 1,
      when(a.at),
      a.duration_ms === undefined ? "—" : `${a.duration_ms} ms`,
      statusCode(a.status_code),
      a.error_class ? html`${badge(a.error_class)} ${a.reason ?? ""}` : none,
      { className: "excerpt", content: a.response_excerpt ? html`<code>${a.response_excerpt}</code>` : none },
    ]),
  );
}

export function deliveryDetailPage(grant: PortalGrant, d: DeliveryDetailJson): Html {
  const replay =
    d.state === "dead" && !grant.readOnly
      ? actionForm({
          api: api("/v1/replays"),
          label: "Replay this delivery",
          then: "go",
          next: "/portal/replays/{id}",
          fields: html`<input
            type="hidden"
            name="filter.ids"
            data-kind="list"
            value="${d.dlq_id ?? d.delivery_id}"
          />`,
        })
      : "";
  return page({
    title: `Delivery ${d.delivery_id}`,
    grant,
    crumbs: [
      ["Endpoints", "/portal"],
      ...(d.direction === "outbound" ? [["Endpoint", `/portal/endpoints/${d.target}`] as const] : []),
    ],
    body: html`${facts([
        ["State", badge(d.state)],
        [
          "Event",
          html`${d.event_id ? html`<a href="/portal/events/${encodeURIComponent(d.event_id)}">${d.event_type ?? d.event_id}</a>` : "—"}`,
        ],
        ["Attempts", d.attempt_count],
        ["Last status", statusCode(d.last_status_code)],
        ["Next attempt", when(d.next_attempt_at)],
        ["Delivered", when(d.delivered_at)],
        d.replay_id
          ? ["Replayed by", html`<a href="/portal/replays/${d.replay_id}">${d.replay_id}</a>`]
          : undefined,
      ])}
      <div class="actions">${replay}</div>
      <section aria-labelledby="attempts-heading">
        <h2 id="attempts-heading">Attempts</h2>
        ${attemptsTable(d.attempts)}
      </section>`,
  });
}

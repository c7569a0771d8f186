// The portal's home: the tenant's endpoints with their health, and its recent replays.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { EndpointJson, ReplayJson } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { type HealthJson, healthCell } from "./health.ts";
import { READ_ONLY_NOTE, badge, dataTable, when } from "./parts.ts";

export interface EndpointRow {
  readonly endpoint: EndpointJson;
  readonly health: HealthJson | undefined;
}

export function endpointState(e: EndpointJson): string {
  if (e.disabled) return "disabled";
  return e.failing_since !== undefined ? "failing" : "enabled";
}

function replayRows(replays: readonly ReplayJson[]): Html {
  if (replays.length === 0) return html`<p class="muted">No replays yet.</p>`;
  return dataTable(
    "Replays of failed deliveries, newest first",
    ["Replay", "State", "Moved", "Created"],
    replays.map((r) => [
      html`<a href="/portal/replays/${r.id}">${r.id}</a>`,
      badge(r.state),
      `${r.moved} of ${r.total_estimate ?? r.matched}`,
      when(r.created_at),
    ]),
  );
}

export function endpointListPage(
  grant: PortalGrant,
  rows: readonly EndpointRow[],
  replays: readonly ReplayJson[],
): Html {
  const table =
    rows.length === 0
      ? html`<p>No endpoints yet.${grant.readOnly ? "" : " Add one to start receiving events."}</p>`
      : dataTable(
          `Endpoints of tenant ${grant.tenant}`,
          ["Endpoint", "State", "Health (last hour)", "Event types"],
          rows.map(({ endpoint: e, health }) => [
            {
              className: "url",
              content: html`<a href="/portal/endpoints/${e.id}">${e.description ?? e.url}</a><br /><span
                  class="muted"
                  >${e.url}</span
                >`,
            },
            badge(endpointState(e)),
            healthCell(health),
            e.event_types.join(", "),
          ]),
        );
  return page({
    title: "Endpoints",
    grant,
    body: html`<section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading" class="sr-only">Your endpoints</h2>
        ${grant.readOnly ? READ_ONLY_NOTE : html`<p><a class="button primary" href="/portal/endpoints/new">Add endpoint</a></p>`}
        ${table}
      </section>
      <section aria-labelledby="replays-heading">
        <h2 id="replays-heading">Replays</h2>
        ${replayRows(replays)}
      </section>`,
  });
}

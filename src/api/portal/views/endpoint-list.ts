// The portal's home: the tenant's endpoints with their health, and its recent replays.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { EndpointJson, ReplayJson } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { type HealthJson, healthCell } from "./health.ts";
import { READ_ONLY_NOTE, badge, when } from "./parts.ts";

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
  return html`<div class="table-wrap">
    <table>
      <caption>
        Replays of failed deliveries, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Replay</th>
          <th scope="col">State</th>
          <th scope="col">Moved</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        ${replays.map(
          (r) =>
            html`<tr>
              <td><a href="/portal/replays/${r.id}">${r.id}</a></td>
              <td>${badge(r.state)}</td>
              <td>${r.moved} of ${r.total_estimate ?? r.matched}</td>
              <td>${when(r.created_at)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function endpointListPage(
  grant: PortalGrant,
  rows: readonly EndpointRow[],
  replays: readonly ReplayJson[],
): Html {
  const table =
    rows.length === 0
      ? html`<p>No endpoints yet.${grant.readOnly ? "" : " Add one to start receiving events."}</p>`
      : html`<div class="table-wrap">
          <table>
            <caption>
              Endpoints of tenant ${grant.tenant}
            </caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">State</th>
                <th scope="col">Health (last hour)</th>
                <th scope="col">Event types</th>
              </tr>
            </thead>
            <tbody>
              ${rows.map(
                ({ endpoint: e, health }) =>
                  html`<tr>
                    <td class="url">
                      <a href="/portal/endpoints/${e.id}">${e.description ?? e.url}</a><br /><span
                        class="muted"
                        >${e.url}</span
                      >
                    </td>
                    <td>${badge(endpointState(e))}</td>
                    <td>${healthCell(health)}</td>
                    <td>${e.event_types.join(", ")}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`;
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

// A replay's progress: how many failed deliveries it found, moved back to delivery and could not move;
// the page reloads itself while the replay runs.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { ReplayJson } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { actionForm, api, badge, when } from "./parts.ts";

const LIVE = new Set(["running", "paused"]);

export function replayDetailPage(grant: PortalGrant, r: ReplayJson): Html {
  const total = Math.max(r.total_estimate ?? 0, r.matched, r.moved + r.failed);
  const endpoint = typeof r.filter.endpoint === "string" ? r.filter.endpoint : undefined;
  return page({
    title: `Replay ${r.id}`,
    grant,
    crumbs: [
      ["Endpoints", "/portal"],
      ...(endpoint ? [["Endpoint", `/portal/endpoints/${endpoint}`] as const] : []),
    ],
    ...(r.state === "running" ? { refreshMs: 1500 } : {}),
    body: html`<dl class="grid panel">
        <div>
          <dt>State</dt>
          <dd>${badge(r.state)}</dd>
        </div>
        <div>
          <dt>Found</dt>
          <dd>${r.matched}</dd>
        </div>
        <div>
          <dt>Moved back to delivery</dt>
          <dd>${r.moved}</dd>
        </div>
        <div>
          <dt>Could not be moved</dt>
          <dd>${r.failed}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>${when(r.created_at)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>${when(r.finished_at)}</dd>
        </div>
      </dl>
      <p>
        <label
          >Progress
          <progress max="${total || 1}" value="${r.moved + r.failed}">
            ${r.moved + r.failed} of ${total}
          </progress></label
        >
      </p>
      ${
        LIVE.has(r.state) && !grant.readOnly
          ? html`<div class="actions">
              ${actionForm({
                api: api(`/v1/replays/${r.id}`),
                method: "PATCH",
                label: r.state === "running" ? "Pause" : "Resume",
                fields: html`<input
                  type="hidden"
                  name="state"
                  data-kind="text"
                  value="${r.state === "running" ? "paused" : "running"}"
                />`,
              })}${actionForm({
                api: api(`/v1/replays/${r.id}`),
                method: "PATCH",
                label: "Cancel",
                danger: true,
                fields: html`<input type="hidden" name="state" data-kind="text" value="cancelled" />`,
              })}
            </div>`
          : ""
      }`,
  });
}

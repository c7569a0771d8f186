// A replay's progress: how many failed deliveries it found, moved back to delivery and could not move;
// the page reloads itself while the replay runs.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { ReplayJson } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { actionForm, api, badge, when, facts } from "./parts.ts";

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
    body: html`${facts([
        ["State", badge(r.state)],
        ["Found", r.matched],
        ["Moved back to delivery", r.moved],
        ["Could not be moved", r.failed],
        ["Started", when(r.created_at)],
        ["Finished", when(r.finished_at)],
      ])}
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

// One event: its payload and its delivery to each endpoint that took it.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { DeliveryJson, Page } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { badge, dataTable, deliveryLink, statusCode, when, facts } from "./parts.ts";

export interface EventJson {
  readonly id: string;
  readonly type: string;
  readonly created_at?: string;
  readonly payload: unknown;
}

export function eventDetailPage(grant: PortalGrant, event: EventJson, deliveries: Page<DeliveryJson>): Html {
  return page({
    title: `Event ${event.id}`,
    grant,
    crumbs: [["Endpoints", "/portal"]],
    body: html`${facts([
        ["Type", event.type],
        ["Published", when(event.created_at)],
      ])}
      <section aria-labelledby="payload-heading">
        <h2 id="payload-heading">Payload</h2>
        <pre class="panel excerpt"><code>${JSON.stringify(event.payload, null, 2)}</code></pre>
      </section>
      <section aria-labelledby="event-deliveries-heading">
        <h2 id="event-deliveries-heading">Deliveries</h2>
        ${dataTable(
          "One delivery per endpoint that subscribed to this event",
          ["Delivery", "Endpoint", "State", "Attempts", "Last status"],
          deliveries.data.map((d) => [
            deliveryLink(d.delivery_id),
            d.endpoint_id ? html`<a href="/portal/endpoints/${d.endpoint_id}">${d.endpoint_id}</a>` : "—",
            badge(d.state),
            d.attempts,
            statusCode(d.last_status_code),
          ]),
        )}
      </section>`,
  });
}

// Creating and editing an endpoint: URL, event types (the catalog's as checkboxes, anything else as
// text), rate limit, custom headers, description. A new endpoint's secret is revealed once, here.
import type { PortalGrant } from "../../../store/portal-session-store.ts";
import type { EndpointJson } from "../api-types.ts";
import { type Html, html } from "../html.ts";
import { page } from "../layout.ts";
import { api } from "./parts.ts";

export interface EventTypeJson {
  readonly name: string;
  readonly description?: string;
}

/** The one-time panel the script fills with a new secret. */
export function secretPanel(next: string): Html {
  return html`<section id="secret-panel" class="notice" tabindex="-1" hidden aria-labelledby="secret-heading">
    <h2 id="secret-heading">Signing secret</h2>
    <p>Copy it now: it is shown this once. Your receiver checks each delivery's signature with it.</p>
    <p class="secret"></p>
    <ul class="warnings warn"></ul>
    <p><a class="button primary" data-next href="${next}">I have copied it — continue</a></p>
  </section>`;
}

function typeChoices(catalog: readonly EventTypeJson[], chosen: readonly string[]): Html {
  const names = new Set(catalog.map((t) => t.name));
  const others = chosen.filter((t) => !names.has(t));
  return html`<fieldset>
    <legend>Event types</legend>
    ${
      catalog.length === 0
        ? html`<p class="hint">No event types are declared yet; name them below.</p>`
        : catalog.map(
            (t) =>
              html`<label
                ><input
                  type="checkbox"
                  name="event_types"
                  data-kind="check"
                  value="${t.name}"
                  ${chosen.includes(t.name) ? html` checked` : ""}
                />
                <span
                  >${t.name}${t.description ? html` <span class="hint">— ${t.description}</span>` : ""}</span
                ></label
              >`,
          )
    }
    <label
      >Other types or patterns
      <span class="hint">comma-separated, e.g. <code>order.*</code> or <code>*</code> for every type</span>
      <input name="event_types" data-kind="list" value="${others.join(", ")}"
    /></label>
  </fieldset>`;
}

function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
}

export function endpointFormPage(
  grant: PortalGrant,
  catalog: readonly EventTypeJson[],
  current?: EndpointJson,
): Html {
  const editing = current !== undefined;
  const title = editing ? "Edit endpoint" : "Add endpoint";
  const form = html`<form
    class="stack"
    data-api="${api(editing ? `/v1/endpoints/${current.id}` : "/v1/endpoints")}"
    data-method="${editing ? "PATCH" : "POST"}"
    data-then="${editing ? "go" : "secret"}"
    data-next="/portal/endpoints/${editing ? current.id : "{id}"}"
  >
    <label
      >URL <span class="hint">where deliveries are POSTed (https)</span>
      <input name="url" type="url" required data-kind="text" value="${current?.url ?? ""}" autocomplete="off"
    /></label>
    <label
      >Description <span class="hint">optional</span>
      <input
        name="description"
        data-kind="text"
        ${editing ? html` data-empty="null"` : ""}
        value="${current?.description ?? ""}"
    /></label>
    ${typeChoices(catalog, current?.event_types ?? [])}
    <label
      >Rate limit <span class="hint">deliveries per second at most; empty: no limit</span>
      <input
        name="rate_limit_per_s"
        type="number"
        min="1"
        inputmode="numeric"
        data-kind="int"
        ${editing ? html` data-empty="null"` : ""}
        value="${current?.rate_limit_per_s ?? ""}"
    /></label>
    <label
      >Custom headers
      <span class="hint"
        >one <code>Name: value</code> a line, sent with every
        delivery${
          editing ? "; credential values show as [redacted]: leave the field as it is to keep them" : ""
        }</span
      >
      <textarea name="headers" rows="3" data-kind="headers" ${editing ? html` data-if-changed` : ""}>
${headerLines(current?.headers ?? {})}</textarea>
    </label>
    <p class="alert" role="alert"></p>
    <p>
      <button class="primary" type="submit">${editing ? "Save" : "Add endpoint"}</button>
      <a class="button" href="${editing ? `/portal/endpoints/${current.id}` : "/portal"}">Cancel</a>
    </p>
  </form>`;
  return page({
    title,
    grant,
    crumbs: [["Endpoints", "/portal"]],
    body: html`${form}${editing ? "" : secretPanel("/portal")}`,
  });
}

// An endpoint's health as GET /v1/endpoints/:id/stats answers it, in a table cell (the list) and in a
// panel (the endpoint's page).
import { type Html, html } from "../html.ts";
import { badge, statusCode, when, facts } from "./parts.ts";

export interface WindowStatsJson {
  readonly attempts: number;
  readonly successes: number;
  readonly success_rate: number | null;
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
}

export interface HealthJson {
  readonly last_hour: WindowStatsJson;
  readonly last_day: WindowStatsJson;
  /** The newest attempt's status code, or its error class when nothing answered. */
  readonly last_status: number | string | null;
  readonly last_attempt_at: string | null;
  readonly breaker: { readonly state: string; readonly open_until: string | null };
  readonly disabled_reason: string | null;
}

function rate(w: WindowStatsJson): string {
  if (w.success_rate === null || w.attempts === 0) return "no attempts";
  return `${(w.success_rate * 100).toFixed(1)}% ok of ${w.attempts} attempt${w.attempts === 1 ? "" : "s"}`;
}

export function healthCell(h: HealthJson | undefined): Html {
  if (!h) return html`<span class="muted">—</span>`;
  const cls = h.last_hour.attempts === 0 ? "muted" : (h.last_hour.success_rate ?? 0) >= 0.99 ? "ok" : "bad";
  return html`<span class="${cls}">${rate(h.last_hour)}</span>`;
}

const ms = (v: number | null): string => (v === null ? "—" : `${Math.round(v)} ms`);

export function healthPanel(h: HealthJson): Html {
  return html`${facts([
    ["Last hour", rate(h.last_hour)],
    ["Last day", rate(h.last_day)],
    ["Duration p50 / p99 (hour)", html`${ms(h.last_hour.p50_ms)} / ${ms(h.last_hour.p99_ms)}`],
    [
      "Last status",
      html`${typeof h.last_status === "number" ? statusCode(h.last_status) : (h.last_status ?? "—")}`,
    ],
    ["Last attempt", when(h.last_attempt_at ?? undefined)],
    [
      "Breaker",
      html`${badge(h.breaker.state)}${h.breaker.open_until ? html` until ${when(h.breaker.open_until)}` : ""}`,
    ],
    h.disabled_reason ? ["Disabled because", h.disabled_reason] : undefined,
  ])}`;
}

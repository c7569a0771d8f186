// An endpoint's health as GET /v1/endpoints/:id/stats answers it, in a table cell (the list) and in a
// panel (the endpoint's page).
import { type Html, html } from "../html.ts";
import { badge, statusCode } from "./parts.ts";

export interface WindowStatsJson {
  readonly attempts: number;
  readonly successes: number;
  readonly success_rate: number | null;
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
}

export interface HealthJson {
  readonly hour: WindowStatsJson;
  readonly day: WindowStatsJson;
  readonly last_status_code?: number | null;
  readonly breaker?: string;
  readonly disabled_reason?: string | null;
}

function rate(w: WindowStatsJson): string {
  return w.success_rate === null || w.attempts === 0
    ? "no attempts"
    : `${(w.success_rate * 100).toFixed(1)}% ok`;
}

export function healthCell(h: HealthJson | undefined): Html {
  if (!h) return html`<span class="muted">—</span>`;
  const cls = h.hour.attempts === 0 ? "muted" : (h.hour.success_rate ?? 0) >= 0.99 ? "ok" : "bad";
  return html`<span class="${cls}">${rate(h.hour)}</span>
    <span class="muted">(${h.hour.attempts} attempts)</span>`;
}

const ms = (v: number | null): string => (v === null ? "—" : `${Math.round(v)} ms`);

export function healthPanel(h: HealthJson): Html {
  return html`<dl class="grid panel">
    <div>
      <dt>Last hour</dt>
      <dd>${rate(h.hour)} · ${h.hour.attempts} attempts</dd>
    </div>
    <div>
      <dt>Last day</dt>
      <dd>${rate(h.day)} · ${h.day.attempts} attempts</dd>
    </div>
    <div>
      <dt>Duration p50 / p99 (hour)</dt>
      <dd>${ms(h.hour.p50_ms)} / ${ms(h.hour.p99_ms)}</dd>
    </div>
    <div>
      <dt>Last status</dt>
      <dd>${statusCode(h.last_status_code ?? undefined)}</dd>
    </div>
    <div>
      <dt>Breaker</dt>
      <dd>${h.breaker ? badge(h.breaker) : "—"}</dd>
    </div>
    ${
      h.disabled_reason
        ? html`<div>
            <dt>Disabled because</dt>
            <dd>${h.disabled_reason}</dd>
          </div>`
        : ""
    }
  </dl>`;
}

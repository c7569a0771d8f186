// The tenant portal's only script, served by the gateway (the page's CSP allows no other). It trades the
// magic link's token for the session cookie, sends the pages' forms as JSON to the /v1 handlers under
// /portal/api, reveals a new secret once, and refreshes a page that watches a running replay.
/* global document, window, location, history, fetch, URLSearchParams */
"use strict";

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };

function announce(text, target) {
  const box = target || document.getElementById("flash");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  if (box.getAttribute("tabindex") === "-1") box.focus();
}

async function errorOf(res) {
  try {
    const body = await res.json();
    if (body && body.error && body.error.message) return `${res.status}: ${body.error.message}`;
  } catch {
    // not JSON: the status says enough
  }
  return `${res.status}: the request failed`;
}

// The link's token is in the fragment, which no browser sends: take it out of the address bar (and
// history) first, then trade it once for the session cookie and load the page as the session sees it.
async function exchangeLinkToken() {
  const token = location.hash.slice(1);
  if (location.pathname !== "/portal" || token === "") return;
  history.replaceState(null, "", location.pathname + location.search);
  const status = document.getElementById("sign-in-status");
  const res = await fetch("/portal/session", {
    method: "POST",
    headers: JSON_HEADERS,
    credentials: "same-origin",
    body: JSON.stringify({ token }),
  });
  if (res.ok) {
    location.reload();
    return;
  }
  announce(await errorOf(res), status);
}

function splitList(text) {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function parseHeaders(text) {
  const out = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`header line "${line.trim()}" is not "Name: value"`);
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

// Each field says how it becomes JSON: data-kind text | int | list | check | bool | bool-value (a
// hidden "true"/"false") | headers | datetime.
// An empty field is left out, or sent as null with data-empty="null" (clearing it on an edit).
function bodyOf(form) {
  const body = {};
  for (const el of form.querySelectorAll("[data-kind]")) {
    const name = el.name;
    const kind = el.dataset.kind;
    if (el.dataset.ifChanged !== undefined && el.value === el.defaultValue) continue;
    if (kind === "check") {
      if (!Array.isArray(body[name])) body[name] = [];
      if (el.checked) body[name].push(el.value);
      continue;
    }
    if (kind === "bool-value") {
      body[name] = el.value === "true";
      continue;
    }
    if (kind === "bool") {
      body[name] = el.checked;
      continue;
    }
    const value = el.value.trim();
    if (kind === "list") {
      body[name] = (Array.isArray(body[name]) ? body[name] : []).concat(splitList(value));
      continue;
    }
    if (value === "" && kind !== "headers") {
      if (el.dataset.empty === "null") body[name] = null;
      continue;
    }
    if (kind === "int") body[name] = Number(value);
    else if (kind === "headers") body[name] = parseHeaders(value);
    else if (kind === "datetime") body[name] = new Date(value).toISOString();
    else body[name] = value;
  }
  // `filter.since`-style names nest: a field named a.b fills body.a.b.
  for (const key of Object.keys(body)) {
    if (!key.includes(".")) continue;
    const [outer, inner] = key.split(".", 2);
    body[outer] = Object.assign(body[outer] || {}, { [inner]: body[key] });
    delete body[key];
  }
  return body;
}

// A new endpoint's subscriptions that no type in the catalog answers to come back as warnings.
function revealSecret(secret, next, warnings) {
  const panel = document.getElementById("secret-panel");
  if (!panel) return;
  panel.querySelector(".secret").textContent = secret;
  const list = panel.querySelector(".warnings");
  if (list && Array.isArray(warnings)) {
    list.replaceChildren(
      ...warnings.map((w) => {
        const item = document.createElement("li");
        item.textContent = w.message;
        return item;
      }),
    );
  }
  const onward = panel.querySelector("a[data-next]");
  if (onward && next) onward.href = next;
  panel.hidden = false;
  panel.focus();
}

async function submitForm(form) {
  const alert = form.querySelector(".alert");
  if (alert) alert.textContent = "";
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
  let body;
  try {
    body = form.dataset.body === "none" ? undefined : JSON.stringify(bodyOf(form));
  } catch (err) {
    announce(err.message, alert);
    return;
  }
  const buttons = form.querySelectorAll("button");
  buttons.forEach((b) => (b.disabled = true));
  try {
    const res = await fetch(form.dataset.api, {
      method: form.dataset.method || "POST",
      headers: JSON_HEADERS,
      credentials: "same-origin",
      body,
    });
    if (!res.ok) {
      announce(await errorOf(res), alert);
      return;
    }
    const json = res.status === 204 ? {} : await res.json();
    const then = form.dataset.then || "reload";
    const next = (form.dataset.next || "").replace("{id}", json.id || "");
    if (then === "secret" && typeof json.secret === "string") revealSecret(json.secret, next, json.warnings);
    else if (then === "go") location.assign(next);
    else if (then === "message") announce(form.dataset.message || "Done.");
    else location.reload();
  } catch (err) {
    announce(`The gateway could not be reached: ${err.message}`, alert);
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

function wireForms() {
  for (const form of document.querySelectorAll("form[data-api]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void submitForm(form);
    });
  }
  // GET filter forms keep plain navigation, minus empty fields.
  for (const form of document.querySelectorAll("form[data-filter]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const params = new URLSearchParams();
      for (const el of form.elements) {
        if (!el.name || el.value === "") continue;
        params.set(el.name, el.dataset.kind === "datetime" ? new Date(el.value).toISOString() : el.value);
      }
      const query = params.toString();
      location.assign(form.action + (query ? `?${query}` : ""));
    });
  }
}

// On a phone a table's rows become cards (see the stylesheet); each cell shows its column's name.
function labelCells() {
  for (const table of document.querySelectorAll("table")) {
    const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, i) => cell.setAttribute("data-label", names[i] || ""));
    }
  }
}

function watchProgress() {
  const main = document.querySelector("main[data-refresh-ms]");
  if (main) window.setTimeout(() => location.reload(), Number(main.dataset.refreshMs));
}

document.addEventListener("DOMContentLoaded", () => {
  wireForms();
  labelCells();
  watchProgress();
  void exchangeLinkToken();
});

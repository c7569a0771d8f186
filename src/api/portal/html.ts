// HTML for the portal's server-rendered pages: a tagged template that escapes every interpolated value
// unless it is already Html, so tenant-controlled text (URLs, descriptions, response excerpts) can
// never become markup.
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/** `html\`<p>${text}</p>\``: values escaped, nested Html and arrays of it kept as markup. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

// Bull Board's page as we serve it: self-contained. The page @bull-board/ui renders links its web fonts
// from a public CDN (fonts.googleapis.com), so opening an admin page would make the operator's browser
// call out to a third party, and an offline or locked-down network would show it half-styled after a
// timeout. Here every <link> to another origin is dropped and the board's font variables point at the
// system's fonts; the board's own CSS and scripts are served by the gateway and name no other origin.

const SYSTEM_FONTS =
  ':root{--font-sans:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;' +
  "--font-mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}";

/** A `<link>` whose href leaves the page's origin: absolute http(s) or protocol-relative. */
const EXTERNAL_LINK = /<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\/[^>]*>\s*/gi;

/** The board's HTML with nothing fetched from another origin, and system fonts in place of web fonts. */
export function selfContainedBoardPage(html: string): string {
  const local = html.replace(EXTERNAL_LINK, "").replace(/'IBM Plex Sans',\s*/g, "");
  // After the board's stylesheet (the last thing in <head>), so these variables win over its own.
  return local.includes("</head>")
    ? local.replace("</head>", `<style>${SYSTEM_FONTS}</style></head>`)
    : `<style>${SYSTEM_FONTS}</style>${local}`;
}

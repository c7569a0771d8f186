// A URL's userinfo is a credential (`https://user:password@host`, a token as the user name): the admin
// API's views of endpoints and breakers, and log lines, show `https://user:***@host` instead. One linear
// scan, since it runs on every log line's strings.

/** Where the authority of a `scheme://` URL ends. */
const AUTHORITY_END = new Set([" ", "\t", "\r", "\n", "/", "?", "#", '"', "'", "<", ">"]);

function masked(userinfo: string): string {
  const colon = userinfo.indexOf(":");
  return colon >= 0 ? `${userinfo.slice(0, colon)}:***` : "***";
}

/** `text` with the password (or the lone user name) of every `scheme://userinfo@host` in it masked. */
export function maskUserinfoIn(text: string): string {
  if (!text.includes("@")) return text;
  let out = "";
  let from = 0;
  let at = text.indexOf("://");
  while (at >= 0) {
    const start = at + 3;
    let end = start;
    while (end < text.length && !AUTHORITY_END.has(text[end] as string)) end++;
    const sign = text.lastIndexOf("@", end - 1);
    if (sign >= start) {
      out += `${text.slice(from, start)}${masked(text.slice(start, sign))}`;
      from = sign;
    }
    at = text.indexOf("://", end);
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `url` with its userinfo masked: `https://user:***@host/path`. */
export function maskUserinfo(url: string): string {
  return maskUserinfoIn(url);
}

/** Does `url` carry the mask where its password goes (a view sent back as if it were the URL)? */
export function hasMaskedPassword(url: string): boolean {
  try {
    return new URL(url).password === "***";
  } catch {
    return false;
  }
}

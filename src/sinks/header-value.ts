// Header values the gateway builds from data (the idempotency key holds a dedup value a sender chose,
// e.g. a JSON id) must be valid headers whatever those bytes are: undici refuses `€`, CJK or CR/LF in a
// value, and that refusal made the hook dead on its first attempt and on every replay. Such bytes are
// percent-encoded (`%` too, so the value always decodes back with decodeURIComponent).

/** Visible ASCII without `%`: what passes unchanged. */
const PLAIN = /^[\x21-\x24\x26-\x7e]*$/;

/** `value` as a header value: every UTF-8 byte outside visible ASCII, and `%`, as `%XX`. */
export function headerSafe(value: string): string {
  if (PLAIN.test(value)) return value;
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    out +=
      byte > 0x20 && byte < 0x7f && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

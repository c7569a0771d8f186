// Finds the value at a dotted path (`data.id`, `items.0.id`) in a JSON body without building the
// document. Dedup reads one id from bodies anyone can send, and JSON.parse of a hostile body (a megabyte
// of `[[[[…`) holds the event loop for hundreds of milliseconds; this scan allocates nothing but the
// keys on the path and the value, refuses nesting deeper than MAX_DEPTH and bodies over MAX_BYTES, and
// otherwise answers exactly what JSON.parse followed by the path would: a document that is not valid
// JSON finds nothing, and of duplicate keys the last one wins.

/** Deeper nesting than any webhook payload uses; refused without reading further. */
export const MAX_DEPTH = 64;
/** Larger bodies are not scanned (their dedup key is the body hash). */
export const MAX_BYTES = 1_048_576;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPABLE = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]); // " \ / b f n r t
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
/** What string() saw besides plain ASCII: a key without either compares byte for byte. */
const ESCAPED = 1;
const NON_ASCII = 2;

/** Not JSON, or nested too deep: the scan finds nothing. */
class Refused extends Error {}
const REFUSED = new Refused();

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number | undefined): boolean =>
  c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));

/**
 * The scalar at `path` in `body`: a non-empty string, or a finite number as a string. Objects, arrays,
 * booleans, null, a missing path, an invalid, too deep or too large document: `undefined`. Only keys the
 * document itself has are followed, so `constructor.name` finds nothing. Never throws.
 */
export function jsonPathValue(body: Buffer, path: string): string | undefined {
  if (body.length > MAX_BYTES) return undefined;
  try {
    const value = new Scanner(body, path.split(".")).document();
    return value === "" ? undefined : value;
  } catch (err) {
    if (err instanceof Refused) return undefined;
    throw err;
  }
}

class Scanner {
  private pos = 0;

  private readonly segments: readonly Buffer[];

  constructor(
    private readonly buf: Buffer,
    private readonly path: readonly string[],
  ) {
    this.segments = path.map((s) => Buffer.from(s, "utf8"));
  }

  document(): string | undefined {
    this.whitespace();
    const value = this.value(0, 0);
    this.whitespace();
    if (this.pos !== this.buf.length) throw REFUSED;
    return value;
  }

  /**
   * Scan one value. `seg` is the index of the path segment the value's members must match next;
   * `path.length` means this value is the one the path names, and -1 that it is off the path.
   */
  private value(depth: number, seg: number): string | undefined {
    const c = this.buf[this.pos];
    if (c === 0x7b) return this.object(depth + 1, seg);
    if (c === 0x5b) return this.array(depth + 1, seg);
    if (c === QUOTE) {
      const start = this.pos;
      this.string();
      return seg === this.path.length ? this.decode(start, this.pos) : undefined;
    }
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      this.literal(c === 0x74 ? TRUE : c === 0x66 ? FALSE : NULL);
      return undefined;
    }
    const start = this.pos;
    this.number();
    if (seg !== this.path.length) return undefined;
    const n = Number(this.buf.toString("latin1", start, this.pos));
    return Number.isFinite(n) ? String(n) : undefined;
  }

  private object(depth: number, seg: number): undefined | string {
    if (depth > MAX_DEPTH) throw REFUSED;
    this.pos++; // {
    const onPath = seg >= 0 && seg < this.path.length;
    let found: string | undefined;
    this.whitespace();
    if (this.buf[this.pos] === 0x7d) {
      this.pos++;
      return undefined;
    }
    for (;;) {
      if (this.buf[this.pos] !== QUOTE) throw REFUSED;
      const keyStart = this.pos;
      const seen = this.string();
      const matches = onPath && this.keyIs(keyStart, this.pos, seen, seg);
      this.whitespace();
      if (this.buf[this.pos++] !== 0x3a) throw REFUSED; // :
      this.whitespace();
      // Of duplicate keys the last one wins, as with JSON.parse.
      if (matches) found = this.value(depth, seg + 1);
      else this.value(depth, -1);
      this.whitespace();
      const next = this.buf[this.pos++];
      if (next === 0x7d) return found; // }
      if (next !== 0x2c) throw REFUSED; // ,
      this.whitespace();
    }
  }

  private array(depth: number, seg: number): undefined | string {
    if (depth > MAX_DEPTH) throw REFUSED;
    this.pos++; // [
    const segment = seg >= 0 && seg < this.path.length ? this.path[seg] : undefined;
    const wanted = segment !== undefined && /^\d+$/.test(segment) ? Number(segment) : -1;
    let found: string | undefined;
    this.whitespace();
    if (this.buf[this.pos] === 0x5d) {
      this.pos++;
      return undefined;
    }
    for (let index = 0; ; index++) {
      if (index === wanted) found = this.value(depth, seg + 1);
      else this.value(depth, -1);
      this.whitespace();
      const next = this.buf[this.pos++];
      if (next === 0x5d) return found; // ]
      if (next !== 0x2c) throw REFUSED; // ,
      this.whitespace();
    }
  }

  /** Is the key literal at [start, end) path segment `seg`? Plain ASCII keys compare without decoding. */
  private keyIs(start: number, end: number, seen: number, seg: number): boolean {
    if (seen !== 0) return this.decode(start, end) === this.path[seg];
    const want = this.segments[seg];
    return (
      want !== undefined &&
      end - start - 2 === want.length &&
      this.buf.compare(want, 0, want.length, start + 1, end - 1) === 0
    );
  }

  /**
   * Skip one string literal, checking its escapes and that it holds no raw control character.
   * Returns ESCAPED and NON_ASCII bits for what it held.
   */
  private string(): number {
    const { buf } = this;
    let pos = this.pos + 1;
    let seen = 0;
    for (;;) {
      const c = buf[pos++];
      if (c === undefined || c < 0x20) throw REFUSED;
      if (c === QUOTE) break;
      if (c >= 0x80) seen |= NON_ASCII;
      if (c !== BACKSLASH) continue;
      seen |= ESCAPED;
      const e = buf[pos++];
      if (e === 0x75) {
        // \uXXXX
        for (let i = 0; i < 4; i++) if (!isHex(buf[pos++])) throw REFUSED;
      } else if (e === undefined || !ESCAPABLE.has(e)) {
        throw REFUSED;
      }
    }
    this.pos = pos;
    return seen;
  }

  /** The text of the (already checked) string literal at [start, end). */
  private decode(start: number, end: number): string {
    const inner = this.buf.subarray(start + 1, end - 1);
    return inner.includes(BACKSLASH)
      ? (JSON.parse(this.buf.toString("utf8", start, end)) as string)
      : inner.toString("utf8");
  }

  /** Skip `word` (true, false or null), which must be next. */
  private literal(word: readonly number[]): void {
    for (let i = 0; i < word.length; i++) if (this.buf[this.pos + i] !== word[i]) throw REFUSED;
    this.pos += word.length;
  }

  /** Skip one number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  private number(): void {
    const { buf } = this;
    let pos = this.pos;
    if (buf[pos] === 0x2d) pos++;
    if (buf[pos] === 0x30) pos++;
    else if (isDigit(buf[pos])) while (isDigit(buf[pos])) pos++;
    else throw REFUSED;
    if (buf[pos] === 0x2e) {
      pos++;
      if (!isDigit(buf[pos])) throw REFUSED;
      while (isDigit(buf[pos])) pos++;
    }
    if (buf[pos] === 0x65 || buf[pos] === 0x45) {
      pos++;
      if (buf[pos] === 0x2b || buf[pos] === 0x2d) pos++;
      if (!isDigit(buf[pos])) throw REFUSED;
      while (isDigit(buf[pos])) pos++;
    }
    this.pos = pos;
  }

  private whitespace(): void {
    const { buf } = this;
    let c = buf[this.pos];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = buf[++this.pos];
  }
}

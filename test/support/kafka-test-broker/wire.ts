// Kafka's primitive wire types (big-endian ints, int16-length strings, int32-length bytes and arrays,
// zig-zag varints) for the TEST broker. Only the non-flexible encodings: kafkajs 2.2.4 never asks for a
// flexible (tagged-field) version of the APIs this peer implements.

/** Thrown when a request is shorter or stranger than its layout says; the broker drops the connection. */
export class MalformedRequest extends Error {}

/** Reads one request (or one record batch) front to back. */
export class Reader {
  private offset = 0;

  constructor(private readonly buf: Buffer) {}

  remaining(): number {
    return this.buf.length - this.offset;
  }

  /** The next `n` bytes, as a view into the request buffer. */
  take(n: number): Buffer {
    if (n < 0 || n > this.remaining())
      throw new MalformedRequest(`need ${n} bytes, have ${this.remaining()}`);
    const out = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  int8(): number {
    return this.take(1).readInt8(0);
  }

  int16(): number {
    return this.take(2).readInt16BE(0);
  }

  int32(): number {
    return this.take(4).readInt32BE(0);
  }

  uint32(): number {
    return this.take(4).readUInt32BE(0);
  }

  int64(): bigint {
    return this.take(8).readBigInt64BE(0);
  }

  boolean(): boolean {
    return this.int8() !== 0;
  }

  nullableString(): string | null {
    const len = this.int16();
    return len < 0 ? null : this.take(len).toString("utf8");
  }

  string(): string {
    const s = this.nullableString();
    if (s === null) throw new MalformedRequest("null where a string is required");
    return s;
  }

  /** INT32-length bytes; -1 is null. */
  bytes(): Buffer | null {
    const len = this.int32();
    return len < 0 ? null : this.take(len);
  }

  /** INT32-count array; -1 (null) reads as `null`. */
  array<T>(item: (r: Reader) => T): T[] | null {
    const n = this.int32();
    if (n < 0) return null;
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(item(this));
    return out;
  }

  /** Zig-zag varint (32-bit). */
  varint(): number {
    let raw = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.take(1)[0] ?? 0;
      raw |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return (raw >>> 1) ^ -(raw & 1);
    }
    throw new MalformedRequest("varint longer than 5 bytes");
  }

  /** Zig-zag varlong (64-bit). */
  varlong(): bigint {
    let raw = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = BigInt(this.take(1)[0] ?? 0);
      raw |= (b & 0x7fn) << shift;
      if ((b & 0x80n) === 0n) return (raw >> 1n) ^ -(raw & 1n);
    }
    throw new MalformedRequest("varlong longer than 10 bytes");
  }

  /** Varint-length bytes; -1 is null. */
  varBytes(): Buffer | null {
    const len = this.varint();
    return len < 0 ? null : this.take(len);
  }
}

/** Builds one response body; `toBuffer()` concatenates once at the end. */
export class Writer {
  private readonly parts: Buffer[] = [];

  private fixed(size: number, write: (b: Buffer) => void): this {
    const b = Buffer.alloc(size);
    write(b);
    this.parts.push(b);
    return this;
  }

  int8(v: number): this {
    return this.fixed(1, (b) => b.writeInt8(v, 0));
  }

  int16(v: number): this {
    return this.fixed(2, (b) => b.writeInt16BE(v, 0));
  }

  int32(v: number): this {
    return this.fixed(4, (b) => b.writeInt32BE(v, 0));
  }

  int64(v: bigint): this {
    return this.fixed(8, (b) => b.writeBigInt64BE(v, 0));
  }

  boolean(v: boolean): this {
    return this.int8(v ? 1 : 0);
  }

  nullableString(v: string | null): this {
    if (v === null) return this.int16(-1);
    const s = Buffer.from(v, "utf8");
    this.int16(s.length);
    this.parts.push(s);
    return this;
  }

  string(v: string): this {
    return this.nullableString(v);
  }

  array<T>(items: readonly T[], item: (w: Writer, v: T) => void): this {
    this.int32(items.length);
    for (const v of items) item(this, v);
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

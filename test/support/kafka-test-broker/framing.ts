// Kafka's TCP framing for the TEST broker: every request and response is an INT32 size followed by that
// many bytes. Requests arrive split and coalesced arbitrarily across `data` events.
import { MalformedRequest } from "./wire.ts";

const MAX_FRAME = 64 * 1024 * 1024;

/** Turns a connection's chunks into whole request frames (size prefix removed). */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** Add a chunk; returns the frames it completed, in order. */
  push(chunk: Buffer): Buffer[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const frames: Buffer[] = [];
    while (this.buffered.length >= 4) {
      const size = this.buffered.readInt32BE(0);
      if (size < 0 || size > MAX_FRAME) throw new MalformedRequest(`frame size ${size}`);
      if (this.buffered.length < 4 + size) break;
      frames.push(this.buffered.subarray(4, 4 + size));
      this.buffered = this.buffered.subarray(4 + size);
    }
    return frames;
  }
}

/** A response frame: size, correlation id (response header v0), body. */
export function responseFrame(correlationId: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeInt32BE(4 + body.length, 0);
  head.writeInt32BE(correlationId, 4);
  return Buffer.concat([head, body]);
}

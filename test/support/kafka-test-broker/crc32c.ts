// CRC-32C (Castagnoli), the checksum of a Kafka v2 record batch. The TEST broker checks it so a framing
// bug in what it decodes shows up as CORRUPT_MESSAGE instead of as silently wrong records.

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32C of `buf`, as an unsigned 32-bit number. */
export function crc32c(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// Which Redis Cluster slot a key hashes to (CRC16/XMODEM of its hash tag, mod 16384), computed here so
// the stores can group a multi-key read by slot and the durable ack can find the master that took a
// write, without asking the cluster. The same rule Redis applies: the text between the first `{` and
// the next `}` is hashed when it is not empty, else the whole key.

export const SLOTS = 16384;

const TABLE = ((): Uint16Array => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

/** The part of `key` Redis hashes: its hash tag when it has a non-empty one, else the key itself. */
export function hashTagOf(key: string): string {
  const open = key.indexOf("{");
  if (open < 0) return key;
  const close = key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** The cluster slot of `key`. */
export function keySlot(key: string): number {
  const bytes = Buffer.from(hashTagOf(key), "utf8");
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc % SLOTS;
}

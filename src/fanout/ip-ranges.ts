// Which IP addresses an outbound delivery may not connect to. Pure and table-driven, so every range is
// unit-tested and the registration check and the connect-time check share one definition. IPv6 forms that
// carry an IPv4 address (mapped, NAT64, 6to4) are judged by the IPv4 address they carry, since that is
// where the packets end up.
import { isIPv4, isIPv6 } from "node:net";

/** Why an address is off limits. */
export type ForbiddenKind =
  | "invalid"
  | "unspecified"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "benchmark"
  | "metadata"
  | "teredo";

export interface ForbiddenAddress {
  readonly kind: ForbiddenKind;
  /** The range that matched, in CIDR notation (for IPv6 carrying IPv4, both ranges). */
  readonly range: string;
  /** The IPv4 address an IPv6 address carries, when that is what was judged. */
  readonly embedded?: string;
}

interface Range<N> {
  readonly cidr: string;
  readonly base: N;
  readonly bits: number;
  readonly kind: ForbiddenKind;
}

/** A 32-bit IPv4 address from dotted decimal, or undefined. */
export function parseIPv4(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

export function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** A 128-bit IPv6 address (zone id ignored, dotted IPv4 tail allowed), or undefined. */
export function parseIPv6(text: string): bigint | undefined {
  const zone = text.indexOf("%");
  let s = zone >= 0 ? text.slice(0, zone) : text;
  if (!isIPv6(s)) return undefined;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (v4 === undefined) return undefined;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const [head = "", rest] = s.split("::", 2);
  const headGroups = head === "" ? [] : head.split(":");
  const restGroups = rest === undefined || rest === "" ? [] : rest.split(":");
  const missing = 8 - headGroups.length - restGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill("0"), ...restGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function v4(cidr: string, kind: ForbiddenKind): Range<number> {
  const [addr = "", bits = "32"] = cidr.split("/");
  const base = parseIPv4(addr);
  if (base === undefined) throw new Error(`bad IPv4 range ${cidr}`);
  return { cidr, base, bits: Number(bits), kind };
}

function v6(cidr: string, kind: ForbiddenKind): Range<bigint> {
  const [addr = "", bits = "128"] = cidr.split("/");
  const base = parseIPv6(addr);
  if (base === undefined) throw new Error(`bad IPv6 range ${cidr}`);
  return { cidr, base, bits: Number(bits), kind };
}

const inV4 = (value: number, r: Range<number>): boolean => {
  const size = 2 ** (32 - r.bits);
  return Math.floor(value / size) === Math.floor(r.base / size);
};
const inV6 = (value: bigint, r: Range<bigint>): boolean => {
  const shift = BigInt(128 - r.bits);
  return value >> shift === r.base >> shift;
};

// First match wins, so the narrow entries come before the ranges that contain them.
const IPV4: readonly Range<number>[] = [
  v4("169.254.169.254/32", "metadata"), // AWS, GCP, Azure, OpenStack instance metadata
  v4("168.63.129.16/32", "metadata"), // Azure's platform endpoint (a public address, but host-local)
  v4("255.255.255.255/32", "broadcast"),
  v4("0.0.0.0/8", "unspecified"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "cgnat"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link_local"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "reserved"), // IETF protocol assignments
  v4("192.0.2.0/24", "documentation"),
  v4("192.88.99.0/24", "reserved"), // deprecated 6to4 relay anycast
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "benchmark"),
  v4("198.51.100.0/24", "documentation"),
  v4("203.0.113.0/24", "documentation"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved"),
];

/** IPv6 ranges that carry an IPv4 address, and where in the 128 bits it sits (shift of its low bit). */
const CARRIERS: readonly { readonly range: Range<bigint>; readonly shift: bigint }[] = [
  { range: v6("::ffff:0:0/96", "reserved"), shift: 0n }, // IPv4-mapped
  { range: v6("::ffff:0:0:0/96", "reserved"), shift: 0n }, // IPv4-translated (SIIT)
  { range: v6("64:ff9b::/96", "reserved"), shift: 0n }, // NAT64 well-known prefix
  { range: v6("2002::/16", "reserved"), shift: 80n }, // 6to4
];

const IPV6: readonly Range<bigint>[] = [
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback"),
  // IPv4-compatible (deprecated since 2006): nothing legitimate uses it, so it is refused whatever it carries.
  v6("::/96", "reserved"),
  v6("64:ff9b:1::/48", "reserved"), // local-use NAT64: translates by a local policy we cannot see
  v6("100::/64", "reserved"), // discard-only
  v6("2001::/32", "teredo"), // tunnels to an IPv4 address hidden (inverted) in the host bits
  v6("2001:2::/48", "benchmark"),
  v6("2001:10::/28", "reserved"), // ORCHID
  v6("2001:20::/28", "reserved"), // ORCHIDv2
  v6("2001:db8::/32", "documentation"),
  v6("3fff::/20", "documentation"),
  v6("fd00:ec2::254/128", "metadata"), // AWS instance metadata over IPv6
  v6("fc00::/7", "private"), // unique local
  v6("fe80::/10", "link_local"),
  v6("fec0::/10", "private"), // deprecated site-local
  v6("ff00::/8", "multicast"),
];
const GLOBAL_UNICAST = v6("2000::/3", "reserved");

function checkV4(value: number): ForbiddenAddress | undefined {
  const hit = IPV4.find((r) => inV4(value, r));
  return hit && { kind: hit.kind, range: hit.cidr };
}

function checkV6(value: bigint): ForbiddenAddress | undefined {
  for (const { range, shift } of CARRIERS) {
    if (!inV6(value, range)) continue;
    const embedded = Number((value >> shift) & 0xffffffffn);
    const inner = checkV4(embedded);
    return (
      inner && {
        kind: inner.kind,
        range: `${range.cidr} carrying ${inner.range}`,
        embedded: formatIPv4(embedded),
      }
    );
  }
  const hit = IPV6.find((r) => inV6(value, r));
  if (hit) return { kind: hit.kind, range: hit.cidr };
  // Outside 2000::/3 nothing is allocated for global unicast: whatever it is, it is not the public internet.
  return inV6(value, GLOBAL_UNICAST) ? undefined : { kind: "reserved", range: "outside 2000::/3" };
}

/**
 * Why `address` (an IPv4 or IPv6 literal, as DNS or a URL gives it; no brackets) must not be connected to,
 * or undefined when it is a public address. Anything that is not an IP address is `invalid`.
 */
export function forbiddenAddress(address: string): ForbiddenAddress | undefined {
  const asV4 = parseIPv4(address);
  if (asV4 !== undefined) return checkV4(asV4);
  const asV6 = parseIPv6(address);
  if (asV6 !== undefined) return checkV6(asV6);
  return { kind: "invalid", range: "not an IP address" };
}

/** Host names that reach instance metadata services without an address in sight. */
export const METADATA_HOSTNAMES: ReadonlySet<string> = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Is `hostname` (any case, trailing dot or not) a metadata service name? */
export function isMetadataHostname(hostname: string): boolean {
  return METADATA_HOSTNAMES.has(hostname.toLowerCase().replace(/\.+$/, ""));
}

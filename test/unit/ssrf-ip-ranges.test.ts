// Every forbidden range, at its edges, plus the IPv6 forms that carry IPv4: the SSRF guard is only as good
// as this table.
import { describe, expect, it } from "vitest";
import {
  forbiddenAddress,
  formatIPv4,
  isMetadataHostname,
  parseIPv4,
  parseIPv6,
} from "../../src/fanout/ip-ranges.ts";

const kind = (address: string): string | undefined => forbiddenAddress(address)?.kind;

describe("IPv4 ranges", () => {
  // [first, last, kind] of each range, and the public neighbours just outside it
  const ranges: [string, string, string, string[]][] = [
    ["0.0.0.0", "0.255.255.255", "unspecified", ["1.0.0.0"]],
    ["10.0.0.0", "10.255.255.255", "private", ["9.255.255.255", "11.0.0.0"]],
    ["100.64.0.0", "100.127.255.255", "cgnat", ["100.63.255.255", "100.128.0.0"]],
    ["127.0.0.0", "127.255.255.255", "loopback", ["126.255.255.255", "128.0.0.0"]],
    ["169.254.0.0", "169.254.255.255", "link_local", ["169.253.255.255", "169.255.0.0"]],
    ["172.16.0.0", "172.31.255.255", "private", ["172.15.255.255", "172.32.0.0"]],
    ["192.0.0.0", "192.0.0.255", "reserved", ["191.255.255.255", "192.0.1.0"]],
    ["192.0.2.0", "192.0.2.255", "documentation", ["192.0.3.0"]],
    ["192.88.99.0", "192.88.99.255", "reserved", ["192.88.98.255", "192.88.100.0"]],
    ["192.168.0.0", "192.168.255.255", "private", ["192.167.255.255", "192.169.0.0"]],
    ["198.18.0.0", "198.19.255.255", "benchmark", ["198.17.255.255", "198.20.0.0"]],
    ["198.51.100.0", "198.51.100.255", "documentation", ["198.51.99.255", "198.51.101.0"]],
    ["203.0.113.0", "203.0.113.255", "documentation", ["203.0.112.255", "203.0.114.0"]],
    ["224.0.0.0", "239.255.255.255", "multicast", ["223.255.255.255"]],
    ["240.0.0.0", "255.255.255.254", "reserved", []],
  ];
  it.each(ranges)("%s – %s is %s", (first, last, k, outside) => {
    expect(kind(first)).toBe(k);
    expect(kind(last)).toBe(k);
    for (const o of outside) expect(kind(o)).toBeUndefined();
  });

  it("names broadcast and the metadata addresses specifically", () => {
    expect(kind("255.255.255.255")).toBe("broadcast");
    expect(kind("169.254.169.254")).toBe("metadata");
    expect(kind("168.63.129.16")).toBe("metadata");
    expect(kind("169.254.169.253")).toBe("link_local");
  });

  it("lets public addresses through", () => {
    for (const a of ["1.1.1.1", "8.8.8.8", "93.184.215.14", "100.63.0.1", "223.255.255.255", "172.217.0.1"])
      expect(forbiddenAddress(a)).toBeUndefined();
  });

  it("reports the matching range", () => {
    expect(forbiddenAddress("10.1.2.3")).toEqual({ kind: "private", range: "10.0.0.0/8" });
  });
});

describe("IPv6 ranges", () => {
  const cases: [string, string][] = [
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fc00::1", "private"],
    ["fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "private"],
    ["fd00:ec2::254", "metadata"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["febf:ffff::1", "link_local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["ff00::", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "documentation"],
    ["3fff::1", "documentation"],
    ["2001::1", "teredo"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
    ["2001:2::1", "benchmark"],
    ["2001:10::1", "reserved"],
    ["2001:20::1", "reserved"],
    ["100::1", "reserved"],
    ["64:ff9b:1::1", "reserved"],
    ["4000::1", "reserved"],
    ["::2", "reserved"], // IPv4-compatible ::0.0.0.2
    ["::8.8.8.8", "reserved"], // IPv4-compatible: refused whatever it carries
  ];
  it.each(cases)("%s is %s", (address, k) => expect(kind(address)).toBe(k));

  it("lets global unicast through", () => {
    for (const a of [
      "2606:4700:4700::1111",
      "2a00:1450:4001:82a::200e",
      "2001:4860:4860::8888",
      "2001:200::1",
    ])
      expect(forbiddenAddress(a)).toBeUndefined();
  });

  it("judges IPv4-mapped addresses (dotted and hex) by the IPv4 they carry", () => {
    expect(forbiddenAddress("::ffff:127.0.0.1")).toEqual({
      kind: "loopback",
      range: "::ffff:0:0/96 carrying 127.0.0.0/8",
      embedded: "127.0.0.1",
    });
    expect(kind("::ffff:7f00:1")).toBe("loopback");
    expect(kind("0:0:0:0:0:ffff:a00:1")).toBe("private");
    expect(kind("::ffff:169.254.169.254")).toBe("metadata");
    expect(kind("::ffff:0:10.0.0.1")).toBe("private"); // IPv4-translated
    expect(forbiddenAddress("::ffff:8.8.8.8")).toBeUndefined();
  });

  it("judges NAT64 and 6to4 by the IPv4 they carry", () => {
    expect(kind("64:ff9b::127.0.0.1")).toBe("loopback");
    expect(kind("64:ff9b::a9fe:a9fe")).toBe("metadata");
    expect(forbiddenAddress("64:ff9b::8.8.8.8")).toBeUndefined();
    expect(forbiddenAddress("2002:7f00:1::1")).toMatchObject({ kind: "loopback", embedded: "127.0.0.1" });
    expect(kind("2002:c0a8:101::")).toBe("private");
    expect(forbiddenAddress("2002:808:808::1")).toBeUndefined();
  });

  it("calls anything else invalid", () => {
    for (const junk of ["", "localhost", "1.2.3", "::ffff:1.2.3.256", "[::1]", "1::2::3", "01.2.3.4"])
      expect(kind(junk)).toBe("invalid");
  });
});

describe("parsing", () => {
  it("round-trips IPv4 and expands IPv6", () => {
    expect(parseIPv4("192.168.1.2")).toBe(0xc0a80102);
    expect(formatIPv4(0xc0a80102)).toBe("192.168.1.2");
    expect(formatIPv4(0xffffffff)).toBe("255.255.255.255");
    expect(parseIPv6("::1")).toBe(1n);
    expect(parseIPv6("1::")).toBe(1n << 112n);
    expect(parseIPv6("::ffff:1.2.3.4")).toBe((0xffffn << 32n) | 0x01020304n);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toBe(0x00010002000300040005000600070008n);
  });
});

describe("metadata host names", () => {
  it("match in any case, with or without a trailing dot", () => {
    for (const h of ["metadata", "metadata.google.internal", "METADATA.Google.Internal.", "metadata."])
      expect(isMetadataHostname(h)).toBe(true);
    for (const h of ["metadata.example.com", "google.internal", "example.com"])
      expect(isMetadataHostname(h)).toBe(false);
  });
});

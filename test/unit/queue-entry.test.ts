// A ledger queue entry carries what a worker needs before its claim: the delivery, its endpoint
// (outbound), its parent. Whatever the parent id holds comes back as it went in.
import { expect, it } from "vitest";
import { decodeEntry, encodeEntry } from "../../src/queue/ledger/queue-entry.ts";

it("round-trips an inbound and an outbound entry", () => {
  const inbound = { id: "dl_abc", data: { p: "hk_1" } };
  const outbound = { id: "dl_def", data: { p: "acme:ev_1", e: "ep_9" } };
  expect(encodeEntry(inbound)).toBe("dl_abc||hk_1");
  expect(decodeEntry(encodeEntry(inbound))).toEqual(inbound);
  expect(decodeEntry(encodeEntry(outbound))).toEqual(outbound);
});

it("keeps a parent that holds the separator whole", () => {
  const entry = { id: "dl_x", data: { p: "t|n:ev_1", e: "ep_1" } };
  expect(decodeEntry(encodeEntry(entry))).toEqual(entry);
});

it("refuses what it could not have written", () => {
  expect(() => encodeEntry({ id: "hk_1", data: { p: "x" } })).toThrow("not a delivery id");
  expect(() => encodeEntry({ id: "dl_1", data: { p: "x", e: "ep|1" } })).toThrow("not an endpoint id");
  expect(() => decodeEntry("dl_1")).toThrow("not a ledger queue entry");
  expect(() => decodeEntry("job:1|x|y")).toThrow("not a ledger queue entry");
});

// Event input and the pattern grammar: what a publish accepts, and which subscriptions an event reaches.
import { describe, expect, it } from "vitest";
import {
  isEventType,
  isEventTypePattern,
  matchesPattern,
  parseEventInput,
  patternsOf,
} from "../../src/domain/event.ts";
import { undeclaredPatterns } from "../../src/domain/event-catalog.ts";
import { idTime, isId } from "../../src/domain/ids.ts";
import { OPERATIONAL_TYPES } from "../../src/domain/operational-events.ts";

describe("event types and patterns", () => {
  it("accept dot-separated segments, and patterns ending in .* or a lone *", () => {
    for (const t of ["order", "order.paid", "a.b-c.d_e", "V2.Order.PAID", "x".repeat(128)]) {
      expect(isEventType(t)).toBe(true);
      expect(isEventTypePattern(t)).toBe(true);
    }
    for (const p of ["*", "order.*", "a.b.*"]) {
      expect(isEventTypePattern(p)).toBe(true);
      expect(isEventType(p)).toBe(false);
    }
  });

  it("refuse everything else", () => {
    for (const bad of ["", ".", "a.", ".a", "a..b", "a b", "a/b", "a:b", "x".repeat(129), "ö", "a.b\n"]) {
      expect(isEventType(bad)).toBe(false);
      expect(isEventTypePattern(bad)).toBe(false);
    }
    for (const bad of ["*.a", "a*", "a.*.b", "a.**", ".*", "**", "a.*.*"])
      expect(isEventTypePattern(bad)).toBe(false);
  });

  it("match exactly, by prefix at any depth, or everything", () => {
    expect(matchesPattern("order.paid", "order.paid")).toBe(true);
    expect(matchesPattern("order.paid", "order.paid.late")).toBe(false);
    expect(matchesPattern("order.paid", "Order.paid")).toBe(false);
    expect(matchesPattern("order.*", "order.paid")).toBe(true);
    expect(matchesPattern("order.*", "order.paid.late")).toBe(true);
    expect(matchesPattern("order.*", "order")).toBe(false);
    expect(matchesPattern("order.*", "orders.paid")).toBe(false);
    expect(matchesPattern("*", "anything.at.all")).toBe(true);
  });

  it("patternsOf lists exactly the patterns that match, in index order", () => {
    expect(patternsOf("a.b.c")).toEqual(["a.b.c", "a.*", "a.b.*", "*"]);
    expect(patternsOf("order")).toEqual(["order", "*"]);
    const candidates = ["a", "a.b", "a.b.c", "a.b.c.d", "a.*", "a.b.*", "a.b.c.*", "b.*", "*", "a.c.*"];
    for (const type of ["a", "a.b", "a.b.c"]) {
      const expected = candidates.filter((p) => isEventTypePattern(p) && matchesPattern(p, type)).sort();
      expect([...patternsOf(type)].sort()).toEqual(expected);
    }
  });

  it("leave the operational types to the subscriptions that name them: * matches none of them", () => {
    for (const type of OPERATIONAL_TYPES) {
      expect(matchesPattern("*", type)).toBe(false);
      expect(matchesPattern("switchyard.*", type)).toBe(true);
      expect(matchesPattern(type, type)).toBe(true);
      expect(patternsOf(type)).not.toContain("*");
      // The indexes one event reads are exactly the patterns that match it.
      const segments = type.split(".");
      const prefixes = segments.slice(1).map((_, i) => `${segments.slice(0, i + 1).join(".")}.*`);
      const candidates = [
        "*",
        "switchyard.endpoint.*",
        "switchyard.delivery.*",
        "other.*",
        ...prefixes,
        type,
      ];
      const expected = [...new Set(candidates.filter((p) => matchesPattern(p, type)))].sort();
      expect([...patternsOf(type)].sort()).toEqual(expected);
    }
    expect(matchesPattern("switchyard.delivery.*", "switchyard.delivery.failing")).toBe(true);
    expect(matchesPattern("switchyard.delivery.*", "switchyard.hook.dead")).toBe(false);
    // Only the reserved namespace: a look-alike is an ordinary type.
    expect(matchesPattern("*", "switchyardx.a")).toBe(true);
    expect(patternsOf("switchyardx.a")).toContain("*");
  });

  it("count the operational types as declared in a catalog", () => {
    const declared = ["order.paid"];
    expect(
      undeclaredPatterns(["switchyard.*", "switchyard.delivery.*", "switchyard.hook.dead"], declared),
    ).toEqual([]);
    expect(undeclaredPatterns(["switchyard.nothing", "order.*", "user.*"], declared)).toEqual([
      "switchyard.nothing",
      "user.*",
    ]);
  });
});

describe("parseEventInput", () => {
  it("generates an ev_ id and serializes the payload once", () => {
    const parsed = parseEventInput(
      { type: "order.paid", payload: { id: 42, note: "naïve" } },
      { now: 1_000_000 },
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(isId("ev", parsed.event.id)).toBe(true);
    expect(idTime(parsed.event.id)).toBe(1_000_000);
    expect(parsed.event.generatedId).toBe(true);
    expect(parsed.event.body.toString("utf8")).toBe('{"id":42,"note":"naïve"}');
    expect(parsed.event.tenant).toBeUndefined();
  });

  it("keeps a well-formed caller id and a tenant", () => {
    const parsed = parseEventInput({ id: "evt_1N:42.a-b", type: "t", payload: null, tenant: "acme" });
    expect(parsed).toMatchObject({
      ok: true,
      event: { id: "evt_1N:42.a-b", generatedId: false, tenant: "acme" },
    });
    if (parsed.ok) expect(parsed.event.body.toString()).toBe("null");
  });

  it("accepts any JSON value as payload", () => {
    for (const payload of [0, "s", false, [], [1, { a: null }], {}])
      expect(parseEventInput({ type: "t", payload }).ok).toBe(true);
  });

  it("lists every problem, naming the field", () => {
    const parsed = parseEventInput({ id: "a b", type: "bad type", tenant: "no/slash", extra: 1 });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toHaveLength(5);
    for (const field of ["extra:", "id:", "type:", "tenant:", "payload:"])
      expect(parsed.errors.some((e) => e.startsWith(field))).toBe(true);
  });

  it("refuses ids out of grammar or too long, non-objects, non-JSON and oversized payloads", () => {
    expect(parseEventInput({ id: "x".repeat(129), type: "t", payload: 1 }).ok).toBe(false);
    expect(parseEventInput({ id: "", type: "t", payload: 1 }).ok).toBe(false);
    expect(parseEventInput({ id: 7, type: "t", payload: 1 }).ok).toBe(false);
    expect(parseEventInput({ type: "t", payload: 1n }).ok).toBe(false);
    for (const body of [null, [], "x", 3])
      expect(parseEventInput(body)).toEqual({ ok: false, errors: ["body: must be a JSON object"] });
    const big = parseEventInput({ type: "t", payload: "x".repeat(100) }, { maxPayloadBytes: 50 });
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.errors[0]).toMatch(/^payload: 102 bytes/);
  });
});

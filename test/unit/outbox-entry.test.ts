// Reading an operational fact back from its outbox: a well-formed entry (as the Lua include writes it)
// reads back whole, and every malformed one is refused with a message, so the drainer never publishes a
// half-formed fact.
import { expect, it } from "vitest";
import { budgetMinute, parseOutboxEntry } from "../../src/domain/outbox-entry.ts";

it("reads an entry, an empty Lua table's [] as no data fields", () => {
  const full = {
    type: "switchyard.hook.dead",
    tenant: "acme",
    at: 1_765_000_000_123,
    budget: "sink:s",
    data: { a: 1 },
  };
  expect(parseOutboxEntry(JSON.stringify(full))).toEqual({ ok: true, entry: full });
  expect(parseOutboxEntry('{"type":"switchyard.endpoint.created","at":1,"data":[]}')).toEqual({
    ok: true,
    entry: { type: "switchyard.endpoint.created", at: 1, tenant: undefined, budget: undefined, data: {} },
  });
});

it("refuses what it cannot publish, saying why", () => {
  const cases: [string, RegExp][] = [
    ["nope", /not JSON/],
    ["[1]", /not a JSON object/],
    ['{"type":"order.paid","at":1,"data":{}}', /unknown type/],
    ['{"type":"switchyard.hook.dead","at":"1","data":{}}', /at/],
    ['{"type":"switchyard.hook.dead","at":1,"tenant":3,"data":{}}', /tenant/],
    ['{"type":"switchyard.hook.dead","at":1,"budget":[],"data":{}}', /budget/],
    ['{"type":"switchyard.hook.dead","at":1,"data":"x"}', /data/],
  ];
  for (const [json, error] of cases) {
    const parsed = parseOutboxEntry(json);
    expect(parsed.ok, json).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  }
});

it("counts a fact against the minute it was decided in", () => {
  expect(budgetMinute(59_999)).toBe(0);
  expect(budgetMinute(60_000)).toBe(1);
});

// Which facts one endpoint write is: decided from the record before and after it, with one event id per
// write (the record's revision), the API's view of the endpoint (never a secret), and the disable's cause.
import { expect, it } from "vitest";
import type { Endpoint } from "../../src/domain/endpoint.ts";
import { endpointFacts } from "../../src/domain/endpoint-facts.ts";
import { endpointFixture } from "../support/endpoint-fixture.ts";

const base: Endpoint = endpointFixture({
  url: "https://u:pw@hooks.example/x",
  tenant: "acme",
  headers: { "x-api-key": "k-s3cret" },
});
const types = (facts: ReturnType<typeof endpointFacts>) => facts.map((f) => f.entry.type);

it("a creation and a deletion are one fact each, with the API's view and no secret", () => {
  const [created] = endpointFacts(undefined, base, 1, 5);
  expect(created?.id).toBe(`op:endpoint.created:${base.id}:1`);
  expect(created?.entry).toMatchObject({
    tenant: "acme",
    at: 5,
    data: { endpoint_id: base.id, tenant: "acme" },
  });
  expect(created?.entry.data.endpoint).toMatchObject({
    url: "https://u:***@hooks.example/x",
    headers: { "x-api-key": "[redacted]" },
  });
  expect(JSON.stringify(created)).not.toMatch(/s3cret|whsec_|"pw@/);
  expect(types(endpointFacts(base, undefined, 7, 5))).toEqual(["switchyard.endpoint.deleted"]);
  expect(endpointFacts(base, undefined, 7, 5)[0]?.id).toBe(`op:endpoint.deleted:${base.id}:7`);
});

it("a write that changes config and disables is updated and disabled, under the write's revision", () => {
  const after = { ...base, description: "d", disabled: true, disabled_reason: "because", version: 2 };
  const facts = endpointFacts(base, after, 4, 9, "failing");
  expect(types(facts)).toEqual(["switchyard.endpoint.updated", "switchyard.endpoint.disabled"]);
  expect(facts.map((f) => f.id)).toEqual([
    `op:endpoint.updated:${base.id}:4`,
    `op:endpoint.disabled:${base.id}:4`,
  ]);
  expect(facts[0]?.entry.data.changed).toEqual(["description"]);
  expect(facts[1]?.entry.data).toMatchObject({ cause: "failing", reason: "because" });
});

it("enabling, rotating a secret and a health-only change", () => {
  const disabled = { ...base, disabled: true, disabled_reason: "x", disabled_at: 3 };
  expect(types(endpointFacts(disabled, base, 2, 9))).toEqual(["switchyard.endpoint.enabled"]);
  const rotated = endpointFacts(
    base,
    { ...base, secret: "whsec_bmV3LW5ldy1uZXctbmV3LW5ldy1uZXctbmV3" },
    2,
    9,
  );
  expect(rotated.map((f) => f.entry.data.changed)).toEqual([["secret"]]);
  expect(JSON.stringify(rotated)).not.toContain("whsec_");
  expect(endpointFacts(base, { ...base, failing_since: 8, updated_at: 9 }, 2, 9)).toEqual([]);
});

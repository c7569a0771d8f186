// An Endpoint record as the domain holds it, for tests that need one without Redis: every field set,
// healthy and enabled, with a valid secret; a test overrides what it is about.
import type { Endpoint } from "../../src/domain/endpoint.ts";

export function endpointFixture(patch: Partial<Endpoint> = {}): Endpoint {
  return {
    id: "ep_01kbqz5w3m8h2x7c4v9n6r1t0a" as Endpoint["id"],
    url: "https://example.com/hooks",
    event_types: ["order.*"],
    tenant: undefined,
    headers: {},
    rate_limit_per_s: undefined,
    payload_format: "standard",
    disabled: false,
    disabled_reason: undefined,
    disabled_at: undefined,
    description: undefined,
    version: 1,
    created_at: 1000,
    updated_at: 1000,
    failing_since: undefined,
    secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
    previous_secrets: [],
    ...patch,
  };
}

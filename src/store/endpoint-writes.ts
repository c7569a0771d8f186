// What the endpoint store's writes take and check: a new endpoint's input, the validation every write
// repeats (the tenant and patterns become parts of Redis keys), and the facts' part of each endpoint
// script's arguments (see lua/endpoint-facts.lua). Apart from the store so it stays one screenful per concept.
import { NAME } from "../config/schema.ts";
import { type Endpoint, secretProblem } from "../domain/endpoint.ts";
import type { RecordedFact } from "../domain/endpoint-facts.ts";
import { isEventTypePattern } from "../domain/event.ts";
import type { PayloadFormat } from "../domain/outbound-body.ts";
import type { Keys } from "./keys.ts";
import type { OpsOutbox } from "./ops-outbox.ts";

export interface NewEndpoint {
  readonly url: string;
  readonly event_types: readonly string[];
  readonly tenant?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly rate_limit_per_s?: number;
  /** The body deliveries carry; the standard shape when absent. */
  readonly payload_format?: PayloadFormat;
  readonly description?: string;
  readonly disabled?: boolean;
  /** A `whsec_` secret of 24–64 bytes; generated when absent. */
  readonly secret?: string;
}

export interface EndpointListQuery {
  /** Only this tenant's endpoints; all endpoints when undefined. */
  readonly tenant?: string;
  readonly limit: number;
  /** The last id of the previous page. */
  readonly cursor?: string;
}

export interface EndpointPage {
  /** In id order: creation order to the millisecond (ids made within one millisecond sort at random). */
  readonly endpoints: readonly Endpoint[];
  /** The cursor of the next page; undefined on the last one. */
  readonly next: string | undefined;
}

export function assertValid(e: Pick<Endpoint, "event_types" | "secret" | "tenant">): void {
  // The tenant and patterns become parts of Redis keys; the API validates them, this keeps other callers honest.
  if (e.tenant !== undefined && !NAME.test(e.tenant))
    throw new RangeError(`not a tenant name: ${JSON.stringify(e.tenant)}`);
  const bad = e.event_types.find((p) => !isEventTypePattern(p));
  if (bad !== undefined) throw new RangeError(`not an event type pattern: ${JSON.stringify(bad)}`);
  const problem = secretProblem(e.secret);
  if (problem !== undefined) throw new RangeError(`endpoint secret ${problem}`);
}

/** A tenant (or the tenantless scope) has `outbound.max_endpoints_per_tenant` endpoints already. */
export class EndpointLimitReached extends Error {
  constructor(readonly max: number) {
    super(`this tenant has ${max} endpoints, the most allowed (outbound.max_endpoints_per_tenant)`);
  }
}

/**
 * The two leading arguments and the trailing keys every endpoint script takes for its facts (see
 * lua/endpoint-facts.lua), and what to do once the script has written them. No facts without `outbox`.
 */
export function endpointFactArgs(
  keys: Keys,
  outbox: OpsOutbox | undefined,
  facts: readonly RecordedFact[],
): { keys: string[]; args: [string, number]; written: () => Promise<void> } {
  if (!outbox?.enabled || facts.length === 0) return { keys: [], args: ["[]", 0], written: async () => {} };
  const box = keys.opsOutbox(keys.endpointBase);
  const factKeys = [box, ...outbox.dirtyKeys];
  const json = JSON.stringify(facts.map((f) => [f.id, JSON.stringify(f.entry)]));
  return { keys: factKeys, args: [json, factKeys.length], written: () => outbox.wrote(box) };
}

// Reading an operational fact back from its outbox: the entries are JSON written by Lua scripts and by
// TypeScript alike, so the drainer checks each one's shape before it publishes anything from it, and an
// entry it cannot read is reported, never sent half-formed.
import { OPERATIONAL_TYPES, type OperationalType, type OutboxEntry } from "./operational-events.ts";

const TYPES: ReadonlySet<string> = new Set(OPERATIONAL_TYPES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entry `json` holds, or a message saying what is wrong with it. */
export function parseOutboxEntry(
  json: string,
): { ok: true; entry: OutboxEntry } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  if (!isRecord(value)) return { ok: false, error: "not a JSON object" };
  const { type, tenant, at, budget, data } = value;
  if (typeof type !== "string" || !TYPES.has(type))
    return { ok: false, error: `unknown type ${String(type)}` };
  if (typeof at !== "number" || !Number.isFinite(at)) return { ok: false, error: "at: not a number" };
  if (tenant !== undefined && typeof tenant !== "string") return { ok: false, error: "tenant: not a string" };
  if (budget !== undefined && typeof budget !== "string") return { ok: false, error: "budget: not a string" };
  // A Lua table with no field encodes as `{}`, but an empty one can come back as `[]`: both mean none.
  const payload = Array.isArray(data) && data.length === 0 ? {} : data;
  if (!isRecord(payload)) return { ok: false, error: "data: not an object" };
  return {
    ok: true,
    entry: { type: type as OperationalType, tenant, at, budget, data: payload },
  };
}

/** The minute (since the epoch) whose budget a fact decided at `at` counts against. */
export function budgetMinute(at: number): number {
  return Math.floor(at / 60_000);
}

// The event catalog: the event types an application says it publishes, declared in config or by API, so
// endpoint owners can pick from them and a subscription to a type nobody publishes is caught when the
// endpoint is made rather than noticed when nothing arrives.
import { matchesPattern } from "./event.ts";
import { OPERATIONAL_TYPES } from "./operational-events.ts";

export interface EventType {
  readonly name: string;
  readonly description?: string | undefined;
  /** A JSON Schema of the payload, kept as declared. */
  readonly schema?: Readonly<Record<string, unknown>> | undefined;
  /** An example payload. */
  readonly example?: unknown;
}

/** Where a catalog entry comes from: config, the API, or Switchyard itself (the operational events). */
export const CATALOG_ORIGINS = ["config", "api", "builtin"] as const;

/** A catalog entry and where it was declared. */
export interface CatalogEntry extends EventType {
  readonly origin: (typeof CATALOG_ORIGINS)[number];
  /** When it was declared by API (ms); undefined for a config entry. */
  readonly createdAt?: number | undefined;
}

/**
 * The subscription patterns of `patterns` no declared type answers to: an exact type that is not
 * declared, or a `prefix.*` that matches none (`*` always matches). The gateway's operational types
 * count as declared (`switchyard.*` is never flagged). A deployment that declares no type at all keeps
 * no catalog, so nothing is flagged.
 */
export function undeclaredPatterns(patterns: readonly string[], declared: readonly string[]): string[] {
  if (declared.length === 0) return [];
  const known = [...declared, ...OPERATIONAL_TYPES];
  const names = new Set(known);
  return patterns.filter((p) =>
    p.endsWith(".*") ? !known.some((name) => matchesPattern(p, name)) : p !== "*" && !names.has(p),
  );
}

// The event catalog as the API serves it: the types declared in config (read-only here) and those
// declared by API, kept in one hash under the endpoints' hash tag. A name declared in config is the
// config's: the API cannot redeclare it. The operational types are built in: listed first, with the schemas
// Switchyard documents for them, and no one may declare a type in their `switchyard.` namespace.
import type { CatalogEntry, EventType } from "../domain/event-catalog.ts";
import { OPERATIONAL_TYPES } from "../domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../domain/operational-schemas.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import type { RedisClient } from "./redis-client.ts";

const putScript = new LuaScript("put-event-type-1.lua", 1);

export type PutResult = "created" | "replaced" | "full" | "configured";

/** The operational event types as catalog entries (sorted by name). */
const BUILTIN: readonly CatalogEntry[] = [...OPERATIONAL_TYPES].sort().map((name) => {
  const doc = OPERATIONAL_SCHEMAS[name];
  return { name, description: doc.description, schema: doc.schema, example: doc.example, origin: "builtin" };
});
const BUILTIN_NAMES: ReadonlySet<string> = new Set(OPERATIONAL_TYPES);

const byName = (a: CatalogEntry, b: CatalogEntry): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

interface Stored {
  description?: string;
  schema?: Record<string, unknown>;
  example?: unknown;
  created_at: number;
}

export class EventCatalogStore {
  private readonly configured: ReadonlyMap<string, EventType>;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    configured: readonly EventType[],
    /** The most types the API may declare. */
    private readonly maxEntries: number,
  ) {
    this.configured = new Map(configured.map((t) => [t.name, t]));
  }

  /**
   * The built-in operational types, then every declared type (config's first where a name is in both),
   * each part sorted by name.
   */
  async list(): Promise<CatalogEntry[]> {
    const raw = await this.redis.hgetall(this.keys.eventTypes);
    const out: CatalogEntry[] = [...this.configured.values()].map((t) => ({ ...t, origin: "config" }));
    for (const [name, json] of Object.entries(raw)) {
      // A name in the reserved namespace stored before it was reserved stays hidden behind the built-ins.
      if (this.configured.has(name) || BUILTIN_NAMES.has(name)) continue;
      let stored: Stored;
      try {
        stored = JSON.parse(json) as Stored;
      } catch {
        continue;
      }
      out.push({
        name,
        description: stored.description,
        schema: stored.schema,
        example: stored.example,
        origin: "api",
        createdAt: stored.created_at,
      });
    }
    return [...BUILTIN, ...out.sort(byName)];
  }

  /** The names of every declared type. */
  async names(): Promise<string[]> {
    const api = await this.redis.hkeys(this.keys.eventTypes);
    return [...new Set([...this.configured.keys(), ...api])];
  }

  /** Declare `t` by API; `configured` when config declares that name (config owns it). */
  async put(t: EventType, now = Date.now()): Promise<PutResult> {
    if (this.configured.has(t.name)) return "configured";
    const stored: Stored = {
      description: t.description,
      schema: t.schema,
      example: t.example,
      created_at: now,
    };
    return (await putScript.run(
      this.redis,
      [this.keys.eventTypes],
      [t.name, JSON.stringify(stored), this.maxEntries],
    )) as PutResult;
  }
}

// The event catalog as the API serves it: the types declared in config (read-only here) and those
// declared by API, kept in one hash under the endpoints' hash tag. A name declared in config is the
// config's: the API cannot redeclare it.
import type { CatalogEntry, EventType } from "../domain/event-catalog.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import type { RedisClient } from "./redis-client.ts";

const putScript = new LuaScript("put-event-type-1.lua", 1);

export type PutResult = "created" | "replaced" | "full" | "configured";

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

  /** Every declared type, config's first where a name is in both, sorted by name. */
  async list(): Promise<CatalogEntry[]> {
    const raw = await this.redis.hgetall(this.keys.eventTypes);
    const out: CatalogEntry[] = [...this.configured.values()].map((t) => ({ ...t, origin: "config" }));
    for (const [name, json] of Object.entries(raw)) {
      if (this.configured.has(name)) continue;
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
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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

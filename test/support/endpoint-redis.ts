// A private key prefix on the real Redis for tests of the endpoint store and API. Endpoint keys carry their
// own hash tag (`{<prefix>:ep}`), so cleaning up deletes both the `{<prefix>}` and the `{<prefix>:ep}` keys.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { Keys } from "../../src/store/keys.ts";
import { REDIS_URL, deletePrefix } from "./test-gateway.ts";

export interface EndpointScratch {
  readonly prefix: string;
  readonly keys: Keys;
  readonly redis: Redis;
  readonly store: EndpointStore;
  /** Every key under the prefix (both hash tags), sorted. */
  keysLeft(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export function endpointScratch(): EndpointScratch {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  const keys = new Keys(prefix);
  return {
    prefix,
    keys,
    redis,
    store: new EndpointStore(redis, keys),
    keysLeft: async () => {
      const found: string[] = [];
      for (const pattern of [`{${prefix}}*`, `{${prefix}:ep}*`]) {
        let cursor = "0";
        do {
          const [next, batch] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
          cursor = next;
          found.push(...batch);
        } while (cursor !== "0");
      }
      return found.sort();
    },
    cleanup: async () => {
      await deletePrefix(redis, prefix);
      await deletePrefix(redis, `${prefix}:ep`);
      redis.disconnect();
    },
  };
}

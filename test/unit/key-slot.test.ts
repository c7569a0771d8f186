// Cluster slots as Redis computes them (CLUSTER KEYSLOT values), and the one-tag rule of our scripts.
import { describe, expect, it } from "vitest";
import { hashTagOf, keySlot } from "../../src/store/key-slot.ts";
import { LuaScript } from "../../src/store/lua-script.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";

describe("keySlot", () => {
  it("matches CLUSTER KEYSLOT", () => {
    expect(keySlot("foo")).toBe(12182);
    expect(keySlot("123456789")).toBe(12739);
    expect(keySlot("{user1000}.following")).toBe(keySlot("user1000"));
    expect(keySlot("{user1000}.following")).toBe(3443);
  });

  it("hashes the first non-empty tag, else the whole key", () => {
    expect(hashTagOf("{sy:3}:hook:hk_1")).toBe("sy:3");
    expect(hashTagOf("{}x")).toBe("{}x");
    expect(hashTagOf("a{}b{c}")).toBe("a{}b{c}");
    expect(hashTagOf("a{b}{c}")).toBe("b");
    expect(hashTagOf("no-tag")).toBe("no-tag");
    expect(keySlot("{sy:3}:a")).toBe(keySlot("{sy:3}:b"));
  });
});

describe("LuaScript", () => {
  it("refuses a call whose keys name two hash tags, before sending anything", async () => {
    const sent: unknown[] = [];
    const redis = { evalsha: (...args: unknown[]) => sent.push(args) } as unknown as RedisClient;
    const script = new LuaScript("release-lock-1.lua", "n");
    await expect(script.run(redis, ["{sy:1}:a", "{sy:2}:b"], [])).rejects.toThrow(/two hash tags/);
    expect(sent).toEqual([]);
  });
});

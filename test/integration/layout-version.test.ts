// The data layout version: stamped on a fresh prefix, checked at every boot before any role writes,
// refused (exit 78, nothing written) when it is newer than the process knows or is pre-ledger data this
// release cannot migrate, migrated by one process at a time under a renewed lock, resumed after a
// crash halfway; `switchyard migrate --dry-run` says what boot would do.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/observability/logger.ts";
import { ensureLayout } from "../../src/store/layout/ensure-layout.ts";
import { CURRENT_LAYOUT, LayoutError } from "../../src/store/layout/layouts.ts";
import { planLayout } from "../../src/store/layout/plan-layout.ts";
import { runSwitchyard } from "../support/cli.ts";
import { type ScratchPrefix, scratchPrefix, testMigration } from "../support/layout-fixtures.ts";
import { startTestGateway, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function scratch(): ScratchPrefix {
  const s = scratchPrefix();
  cleanups.push(() => s.cleanup());
  return s;
}

/** Boot a web process from the config file as an operator would, with a bound on how long it may run. */
function bootWeb(s: ScratchPrefix) {
  return runSwitchyard("http://127.0.0.1:9", ["web", "--config", s.configFile], {}, 20_000);
}

describe("layout version at boot", () => {
  it("a fresh prefix is stamped with the current layout when a gateway starts", async () => {
    const config = testConfig({
      sinks: { audit: { type: "log" } },
      sources: {
        demo: { verify: { type: "none" }, dedup: "body", sinks: ["audit"], allow_non_durable: true },
      },
    });
    const gw = await startTestGateway(config, { roles: ["api"], listen: false });
    cleanups.push(() => gw.stop());
    expect(await gw.redis.get(gw.gateway.keys.layoutVersion)).toBe(String(CURRENT_LAYOUT));
  });

  it("ledger keys without a version (a deployment from before the version key) are stamped layout 1, then migrated", async () => {
    const s = scratch();
    await s.redis.hset(`${s.keys.bucketTag(3)}:hook:hk_existing3`, "live", "1");
    const outcome = await ensureLayout(s.redis, s.keys, silentLogger());
    expect(outcome).toEqual({ version: CURRENT_LAYOUT, migrated: ["1->2"], stamped: "ledger" });
    expect(await s.redis.get(s.keys.layoutVersion)).toBe(String(CURRENT_LAYOUT));
  });

  it("a process older than the layout refuses to start with exit 78 and writes nothing", async () => {
    const s = scratch();
    await s.redis.set(s.keys.layoutVersion, String(CURRENT_LAYOUT + 1));
    const before = await s.stored();
    const run = await bootWeb(s);
    expect(run.code, run.stderr).toBe(78);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`holds data layout ${CURRENT_LAYOUT + 1}, newer than this release knows`);
    expect(await s.stored()).toEqual(before);
  });

  it("pre-ledger keys that release never wrote are refused with exit 78 pointing to Upgrading, not migrated", async () => {
    const s = scratch();
    await s.redis.hset(`{${s.prefix}}:hook:01old`, "state", "queued");
    await s.redis.zadd(`{${s.prefix}}:dlq:all`, 1, "job-1");
    const before = await s.stored();
    const run = await bootWeb(s);
    expect(run.code, run.stderr).toBe(78);
    expect(run.stderr).toContain("key(s) the pre-ledger release never wrote (e.g. {");
    expect(run.stderr).toContain('see "Upgrading" in the README');
    expect(await s.stored()).toEqual(before);
    await expect(ensureLayout(s.redis, s.keys, silentLogger())).rejects.toBeInstanceOf(LayoutError);
  });
});

describe("layout migrations", () => {
  it("a migration interrupted halfway resumes at its first unfinished step", async () => {
    const s = scratch();
    await s.redis.set(s.keys.layoutVersion, "1");
    const { migration, log } = testMigration(1, { failOnce: "index" });
    const opts = { current: 2, migrations: [migration] };
    await expect(ensureLayout(s.redis, s.keys, silentLogger(), opts)).rejects.toThrow(
      "crashed in step index",
    );
    expect(await s.redis.get(s.keys.layoutVersion)).toBe("1");
    expect(Object.keys(await s.redis.hgetall(s.keys.layoutSteps(1, 2)))).toEqual(["copy"]);
    expect(await s.redis.exists(s.keys.layoutLock)).toBe(0);

    const outcome = await ensureLayout(s.redis, s.keys, silentLogger(), opts);
    expect(outcome).toEqual({ version: 2, migrated: ["1->2"] });
    expect(log.runs).toEqual({ copy: 1, index: 2, cleanup: 1 });
    expect(await s.redis.get(s.keys.layoutVersion)).toBe("2");
    expect(await s.redis.exists(s.keys.layoutSteps(1, 2))).toBe(0);
    for (const step of ["copy", "index", "cleanup"])
      expect(await s.redis.get(`${s.keys.bucketTag(0)}:migrated:${step}`)).toBe("1");
  });

  it("the lock of a migrator that died holds others off until it lapses, then one resumes", async () => {
    const s = scratch();
    await s.redis.set(s.keys.layoutVersion, "1");
    await s.redis.set(s.keys.layoutLock, "a-process-that-died", "PX", 600);
    const { migration, log } = testMigration(1);
    const t0 = Date.now();
    const outcome = await ensureLayout(s.redis, s.keys, silentLogger(), {
      current: 2,
      migrations: [migration],
      pollMs: 50,
    });
    expect(outcome.version).toBe(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    expect(log.runs).toEqual({ copy: 1, index: 1, cleanup: 1 });
  });

  it("two processes migrating at once: one runs each step once, the other waits for it", async () => {
    const s = scratch();
    await s.redis.set(s.keys.layoutVersion, "1");
    // Each step outlasts the lock's time to live: only renewal keeps the second process out.
    const { migration, log } = testMigration(1, { stepMs: 400 });
    const opts = { current: 2, migrations: [migration], lockTtlMs: 300, pollMs: 50 };
    const [a, b] = await Promise.all([
      ensureLayout(s.redis, s.keys, silentLogger(), opts),
      ensureLayout(s.redis, s.keys, silentLogger(), opts),
    ]);
    expect([a.version, b.version]).toEqual([2, 2]);
    expect([...a.migrated, ...b.migrated]).toEqual(["1->2"]);
    expect(log.runs).toEqual({ copy: 1, index: 1, cleanup: 1 });
    expect(log.maxConcurrent).toBe(1);
  });
});

describe("switchyard migrate", () => {
  it("--dry-run says what boot would do and writes nothing; migrate does it", async () => {
    const s = scratch();
    const dry = await runSwitchyard("", ["migrate", "--dry-run", "--config", s.configFile]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`prefix "${s.prefix}": this release uses layout 2 (tenant-scoped events)`);
    expect(dry.stdout).toContain("no layout version and no keys: would write layout 2");
    expect(await s.stored()).toEqual([]);

    const done = await runSwitchyard("", ["migrate", "--config", s.configFile]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`prefix "${s.prefix}": layout 2 (wrote the first layout version)`);
    expect(await s.stored()).toEqual([s.keys.layoutVersion]);

    const again = await runSwitchyard("", ["migrate", "--dry-run", "--config", s.configFile]);
    expect(again.stdout).toContain("layout 2 is stored: nothing to migrate");
  });

  it("--dry-run exits 78 on a layout boot would refuse", async () => {
    const s = scratch();
    await s.redis.set(s.keys.layoutVersion, "7");
    const dry = await runSwitchyard("", ["migrate", "--dry-run", "--config", s.configFile]);
    expect(dry.code).toBe(78);
    expect(dry.stdout).toContain("would refuse to start:");
    expect(dry.stdout).toContain("holds data layout 7, newer than this release knows (up to 2)");
  });

  it("migrate_hung_on_unreachable_redis: exits 69 at once instead of reconnecting forever", async () => {
    const s = scratch();
    const unreachable = join(dirname(s.configFile), "unreachable.yaml");
    writeFileSync(
      unreachable,
      readFileSync(s.configFile, "utf8").replace(/url: "[^"]+"/, 'url: "redis://127.0.0.1:1"'),
    );
    const t0 = Date.now();
    const run = await runSwitchyard("", ["migrate", "--dry-run", "--config", unreachable], {}, 15_000);
    expect(run.code, run.stderr).toBe(69);
    expect(run.stderr).toContain("cannot reach Redis at redis://127.0.0.1:1");
    expect(Date.now() - t0).toBeLessThan(12_000);
  });

  it("lists each pending migration with its plan", async () => {
    const s = scratch();
    await s.redis.set(s.keys.layoutVersion, "1");
    const { migration, log } = testMigration(1, { steps: ["copy"] });
    const plan = await planLayout(s.redis, s.keys, { current: 2, migrations: [migration] });
    expect(plan.lines.slice(1)).toEqual([
      "layout 1 is stored",
      "would migrate layout 1 -> 2: test migration 1 -> 2",
      `  would write ${s.keys.bucketTag(0)}:migrated:copy`,
    ]);
    expect(log.runs).toEqual({});
    expect(await s.stored()).toEqual([s.keys.layoutVersion]);
  });
});

// The `switchyard` command line: which API call each command makes from its arguments, per-command
// help, and usage errors (exit 64, one clear line) before anything talks to a server.
import { describe, expect, it } from "vitest";
import { parseTime } from "../../src/cli/options.ts";
import { runCli } from "../../src/cli/run.ts";

const NOW = Date.parse("2030-06-01T12:00:00.000Z");

interface Call {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly calls: readonly Call[];
}

/** Run the CLI against a fake API that answers every call with `answer`. */
async function run(argv: string[], answer: unknown = { data: [], next_cursor: null }): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const calls: Call[] = [];
  const code = await runCli(argv, {
    stdout: { write: (s: string) => ((stdout += s), true) } as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((stderr += s), true) } as NodeJS.WritableStream,
    env: { SWITCHYARD_URL: "http://api.test:3000" },
    fetch: async (url, init) => {
      calls.push({
        method: init.method ?? "GET",
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response(JSON.stringify(answer), { status: 200 });
    },
  });
  return { code, stdout, stderr, calls };
}

const call = async (...argv: string[]): Promise<Call> => {
  const r = await run(argv);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.calls).toHaveLength(1);
  return r.calls[0]!;
};

describe("switchyard command line", () => {
  it("shows the overview for no arguments, help, --help and -h, on stdout with exit 0", async () => {
    for (const argv of [[], ["help"], ["--help"], ["-h"]]) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(0);
      expect(r.stdout).toMatch(/^Usage: switchyard \[options\] \[command\]/);
      for (const command of [
        "check-config",
        "print-config",
        "dlq",
        "hooks",
        "replays",
        "endpoints",
        "breakers",
      ])
        expect(r.stdout).toContain(command);
      expect(r.calls).toEqual([]);
    }
  });

  it.each([
    [
      ["dlq", "list", "--help"],
      /Usage: switchyard dlq list \[options\][\s\S]*--error-class <class>[\s\S]*--cursor/,
    ],
    [["help", "dlq"], /Usage: switchyard dlq \[options\] \[command\][\s\S]*replay/],
    [["dlq", "replay", "-h"], /--rate <n>[\s\S]*--no-wait/],
    [["replays", "pause", "--help"], /Usage: switchyard replays pause \[options\] <id>/],
    [["check-config", "--help"], /--roles <list>[\s\S]*--strict/],
    [["breakers", "--help"], /Usage: switchyard breakers \[options\]/],
  ])("has per-command help: %j", async (argv, shown) => {
    const r = await run(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(shown);
    expect(r.calls).toEqual([]);
  });

  it("turns dlq list filters into the API's names, ages into ISO times, --url from anywhere", async () => {
    const before = Date.now();
    const { method, url } = await call(
      "dlq",
      "list",
      "--source",
      "stripe",
      "--sink=forward",
      "--error-class",
      "throttled",
      "--since",
      "2h",
      "--limit",
      "20",
      "--url",
      "http://other:1",
    );
    expect(method).toBe("GET");
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe("http://other:1/v1/dlq");
    const q = Object.fromEntries(u.searchParams);
    expect(q).toMatchObject({ source: "stripe", sink: "forward", error_class: "throttled", limit: "20" });
    expect(Date.parse(q.since!)).toBeGreaterThanOrEqual(before - 2 * 3_600_000 - 1000);
    expect(Date.parse(q.since!)).toBeLessThanOrEqual(Date.now() - 2 * 3_600_000);
    expect((await call("--url", "http://x:2", "dlq", "list", "--cursor", "abc")).url).toBe(
      "http://x:2/v1/dlq?cursor=abc",
    );
  });

  it("posts dlq replay filters, repeated --id and --rate; --no-wait returns at once", async () => {
    const answer = { id: "rp_1", state: "running", matched: 0, moved: 0, failed: 0, total_estimate: 2 };
    const r = await run(
      ["dlq", "replay", "--id", "hk_a-out", "--id", "hk_b", "--rate", "200", "--no-wait"],
      answer,
    );
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      {
        method: "POST",
        url: "http://api.test:3000/v1/replays",
        body: { filter: { ids: ["hk_a-out", "hk_b"] }, rate_per_s: 200 },
      },
    ]);
    expect(r.stdout).toBe("replay rp_1 started (2 entries at most)\n");
    const all = await run(["dlq", "replay", "--all", "--no-wait", "--json"], answer);
    expect(all.calls[0]?.body).toEqual({ filter: {} });
    expect(JSON.parse(all.stdout)).toEqual(answer);
  });

  it("maps hooks show, replays, endpoints and breakers onto their API calls", async () => {
    const id = "rp_0000000000000000000000000a";
    expect(await call("hooks", "show", "hk_1", "--body", "--json")).toMatchObject({
      method: "GET",
      url: "http://api.test:3000/v1/hooks/hk_1?include=body",
    });
    expect((await call("replays", "list", "--state", "paused", "--limit", "5")).url).toBe(
      "http://api.test:3000/v1/replays?state=paused&limit=5",
    );
    expect(await call("replays", "show", id, "--json")).toMatchObject({
      method: "GET",
      url: `http://api.test:3000/v1/replays/${id}`,
    });
    for (const [verb, state] of [
      ["pause", "paused"],
      ["resume", "running"],
      ["cancel", "cancelled"],
    ] as const)
      expect(await call("replays", verb, id)).toEqual({
        method: "PATCH",
        url: `http://api.test:3000/v1/replays/${id}`,
        body: { state },
      });
    expect((await call("endpoints", "list", "--tenant", "acme", "--limit", "50")).url).toBe(
      "http://api.test:3000/v1/endpoints?tenant=acme&limit=50",
    );
    expect((await call("breakers", "--json")).url).toBe("http://api.test:3000/v1/breakers");
  });

  it.each([
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["dlq"], /Usage: switchyard dlq/],
    [["dlq", "purge"], /unknown command 'purge'/],
    [["dlq", "list", "--colour", "red"], /unknown option '--colour'[\s\S]*Usage: switchyard dlq list/],
    [["dlq", "list", "--limit", "0"], /--limit must be a positive integer/],
    [["dlq", "list", "--limit", "1001"], /--limit is at most 1000/],
    [["dlq", "list", "--limit", "ten"], /--limit must be a positive integer/],
    [["dlq", "list", "--error-class", "fatal"], /Allowed choices are permanent, throttled, transient/],
    [["dlq", "list", "--since", "last week"], /--since: "last week" is not a time/],
    [["dlq", "list", "extra"], /too many arguments/],
    [["dlq", "list", "--source"], /argument missing/],
    [["dlq", "replay"], /give a filter .* or --all[\s\S]*Usage: switchyard dlq replay/],
    [["dlq", "replay", "--source", "s", "--rate", "-5"], /--rate|argument missing/],
    [["hooks", "show"], /missing required argument 'id'/],
    [["hooks", "delete", "x"], /unknown command 'delete'/],
    [["replays", "pause"], /missing required argument 'id'/],
    [["replays", "cancel", "hk_1"], /"hk_1" is not a replay id/],
    [["replays", "list", "--state", "stuck"], /Allowed choices are running, paused, done, cancelled/],
    [["replays", "rewind", "rp_x"], /unknown command 'rewind'/],
    [["endpoints", "list", "--limit", "x"], /--limit must be a positive integer/],
    [["breakers", "extra"], /too many arguments/],
    [["check-config", "a", "b"], /too many arguments/],
    [["check-config", "--roles", "api,web"], /--roles: unknown role "web"/],
    [["--url"], /'--url <url>' argument missing/],
  ])("rejects %j with exit 64 and no API call", async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(message);
    expect(r.calls).toEqual([]);
  });
});

describe("parseTime", () => {
  it("keeps ISO times and epoch ms, and resolves ages against now", () => {
    expect(parseTime("2030-01-02T03:04:05Z", "--since", NOW)).toBe("2030-01-02T03:04:05Z");
    expect(parseTime("1700000000000", "--since", NOW)).toBe("1700000000000");
    expect(parseTime("30s", "--since", NOW)).toBe("2030-06-01T11:59:30.000Z");
    expect(parseTime("15m", "--since", NOW)).toBe("2030-06-01T11:45:00.000Z");
    expect(parseTime("1.5h", "--since", NOW)).toBe("2030-06-01T10:30:00.000Z");
    expect(parseTime("7d", "--since", NOW)).toBe("2030-05-25T12:00:00.000Z");
    expect(parseTime("1w", "--since", NOW)).toBe("2030-05-25T12:00:00.000Z");
  });

  it("rejects anything else, naming the flag", () => {
    for (const bad of ["yesterday", "2h ago", "-1h", "2030-13-45", ""]) {
      expect(() => parseTime(bad, "--until", NOW)).toThrow(/--until/);
    }
  });
});

// Argument parsing of the `switchyard` CLI: subcommands, filters, times, and usage errors.
import { describe, expect, it } from "vitest";
import { UsageError, parseCommand, parseTime } from "../../src/cli/args.ts";

const NOW = Date.parse("2030-06-01T12:00:00.000Z");
const parse = (...argv: string[]) => parseCommand(argv, NOW);

describe("parseCommand", () => {
  it("shows help for no arguments, help, --help and -h", () => {
    for (const argv of [[], ["help"], ["--help"], ["-h"]])
      expect(parse(...argv).command).toEqual({ kind: "help" });
    expect(parse("dlq", "list", "--help").command).toEqual({ kind: "help", topic: "dlq" });
  });

  it("parses check-config and print-config with a file as argument or --config", () => {
    expect(parse("check-config").command).toEqual({ kind: "check-config" });
    expect(parse("check-config", "a.yaml").command).toEqual({ kind: "check-config", file: "a.yaml" });
    expect(parse("check-config", "--config", "b.yaml").command).toEqual({
      kind: "check-config",
      file: "b.yaml",
    });
    expect(parse("print-config", "-c", "b.yaml", "--json").command).toEqual({
      kind: "print-config",
      file: "b.yaml",
      json: true,
    });
  });

  it("parses dlq list filters into the API's names, ages into ISO times", () => {
    const { command } = parse(
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
    );
    expect(command).toEqual({
      kind: "dlq-list",
      filter: {
        source: "stripe",
        sink: "forward",
        error_class: "throttled",
        since: "2030-06-01T10:00:00.000Z",
      },
      limit: 20,
      json: false,
    });
    expect(parse("dlq", "list", "--cursor", "abc", "--json").command).toMatchObject({
      cursor: "abc",
      json: true,
      filter: {},
    });
  });

  it("parses dlq replay: filters, repeated --id, rate, --no-wait", () => {
    expect(
      parse("dlq", "replay", "--source", "github", "--since", "2030-05-01T00:00:00Z", "--rate", "200")
        .command,
    ).toEqual({
      kind: "dlq-replay",
      filter: { source: "github", since: "2030-05-01T00:00:00Z" },
      ids: [],
      rate: 200,
      wait: true,
      json: false,
    });
    expect(parse("dlq", "replay", "--id", "hk_a-out", "--id", "hk_b", "--no-wait").command).toMatchObject({
      ids: ["hk_a-out", "hk_b"],
      wait: false,
    });
    expect(parse("dlq", "replay", "--all").command).toMatchObject({
      kind: "dlq-replay",
      filter: {},
      ids: [],
    });
  });

  it("parses hooks show and takes --url from anywhere", () => {
    expect(parse("hooks", "show", "hk_1", "--body")).toEqual({
      command: { kind: "hooks-show", id: "hk_1", body: true, json: false },
    });
    expect(parse("--url", "http://x:1", "hooks", "show", "hk_1")).toMatchObject({ url: "http://x:1" });
    expect(parse("dlq", "list", "--url=http://y:2")).toMatchObject({
      url: "http://y:2",
      command: { kind: "dlq-list" },
    });
  });

  it.each([
    [["frobnicate"], /unknown command "frobnicate"/],
    [["dlq"], /which subcommand/],
    [["dlq", "purge"], /unknown subcommand "purge"/],
    [["dlq", "list", "--colour", "red"], /colour/],
    [["dlq", "list", "--limit", "0"], /--limit must be a positive integer/],
    [["dlq", "list", "--limit", "1001"], /at most 1000/],
    [["dlq", "list", "--limit", "ten"], /--limit must be a positive integer/],
    [["dlq", "list", "--error-class", "fatal"], /--error-class must be/],
    [["dlq", "list", "--since", "last week"], /--since: "last week" is not a time/],
    [["dlq", "list", "extra"], /unexpected argument "extra"/],
    [["dlq", "list", "--source"], /argument missing|source/],
    [["dlq", "replay"], /give a filter .* or --all/],
    [["dlq", "replay", "--source", "s", "--rate", "-5"], /--rate|argument missing/],
    [["hooks", "show"], /which hook/],
    [["hooks", "delete", "x"], /unknown subcommand "delete"/],
    [["check-config", "a", "b"], /unexpected argument "b"/],
    [["--url"], /--url needs a value/],
  ])("rejects %j", (argv, message) => {
    expect(() => parse(...argv)).toThrow(UsageError);
    expect(() => parse(...argv)).toThrow(message);
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

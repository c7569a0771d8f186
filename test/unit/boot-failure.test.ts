// The one line and exit code a failed start ends with, per cause (the busy-port regression runs the
// real process: test/e2e/boot-busy-port.test.ts).
import { expect, it } from "vitest";
import { ConfigError } from "../../src/config/load.ts";
import { describeBootFailure } from "../../src/runtime/boot-failure.ts";

function listenError(code: string, address = "0.0.0.0", port = 3100): Error {
  return Object.assign(new Error(`listen ${code}: ${address}:${port}`), {
    code,
    syscall: "listen",
    address,
    port,
  });
}

it("a port in use is unavailable (69): the platform's restart may find it free", () => {
  expect(describeBootFailure(listenError("EADDRINUSE"))).toEqual({
    line: "cannot listen on 0.0.0.0:3100: address in use",
    code: 69,
  });
});

it("a port or address this machine will never give is a config error (78)", () => {
  expect(describeBootFailure(listenError("EACCES", "0.0.0.0", 80))).toEqual({
    line: "cannot listen on 0.0.0.0:80: permission denied (a port below 1024 needs privileges)",
    code: 78,
  });
  expect(describeBootFailure(listenError("EADDRNOTAVAIL", "10.9.9.9")).code).toBe(78);
});

it("a config error keeps its message and exits 78; anything else says it could not start, exit 1", () => {
  expect(describeBootFailure(new ConfigError("f.yaml: invalid config", "f.yaml"))).toEqual({
    line: "f.yaml: invalid config",
    code: 78,
  });
  expect(describeBootFailure(new Error("CLUSTERDOWN"))).toEqual({
    line: "could not start: CLUSTERDOWN",
    code: 1,
  });
});

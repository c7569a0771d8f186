// url_userinfo_shown: a URL's password is a credential; API views of endpoints and breakers, and log
// lines, show `https://user:***@host`.
import { Writable } from "node:stream";
import { expect, it } from "vitest";
import { endpointBreakerView } from "../../src/api/routes/breakers.ts";
import { maskUserinfo, maskUserinfoIn } from "../../src/domain/masked-url.ts";
import { createLogger } from "../../src/observability/logger.ts";

it("url_userinfo_shown: masks the password, or a lone user name, of a URL", () => {
  expect(maskUserinfo("https://svc:hunter2@hooks.example.com/in?x=1")).toBe(
    "https://svc:***@hooks.example.com/in?x=1",
  );
  expect(maskUserinfo("https://ghp_token123@hooks.example.com/in")).toBe("https://***@hooks.example.com/in");
  expect(maskUserinfo("https://hooks.example.com/a@b")).toBe("https://hooks.example.com/a@b");
  expect(maskUserinfoIn("connect to amqp://u:pw@rabbit:5672 and https://x:y@h/p failed")).toBe(
    "connect to amqp://u:***@rabbit:5672 and https://x:***@h/p failed",
  );
});

it("url_userinfo_shown: the breaker view of an endpoint masks its URL", () => {
  const view = endpointBreakerView(
    {
      id: "ep_00000000000000000000000000",
      tenant: undefined,
      url: "https://svc:hunter2@hooks.example.com/in",
    },
    { state: "open", openUntil: null, probeUntil: null } as Parameters<typeof endpointBreakerView>[1],
  );
  expect(view.url).toBe("https://svc:***@hooks.example.com/in");
});

it("url_userinfo_shown: log lines mask URL userinfo in their string fields", () => {
  let out = "";
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ level: "info", destination: sink });
  logger.warn(
    { reason: "refused https://svc:hunter2@hooks.example.com/in", url: "http://u:pw@h/" },
    "attempt failed",
  );
  expect(out).not.toContain("hunter2");
  expect(out).not.toContain(":pw@");
  expect(out).toContain("https://svc:***@hooks.example.com/in");
});

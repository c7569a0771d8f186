// The SSRF guard at registration (checkDestination) and at send time (the guarded undici dispatcher), the
// latter against a real loopback server with a scripted resolver standing in for a rebinding DNS server.
import type { LookupAddress } from "node:dns";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Resolver,
  SsrfBlockedError,
  checkDestination,
  createGuardedDispatcher,
  ssrfBlockOf,
} from "../../src/fanout/ssrf-guard.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const answers =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
const nxdomain: Resolver = async () => {
  throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
};
/** Resolves to `first` once, then to `later`: a rebinding name. */
function rebinding(first: string, later: string): Resolver & { calls: number } {
  const fn = async (): Promise<LookupAddress[]> => {
    fn.calls += 1;
    return [{ address: fn.calls === 1 ? first : later, family: 4 }];
  };
  fn.calls = 0;
  return fn;
}

async function refusal(p: Promise<unknown>): Promise<SsrfBlockedError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  const blocked = ssrfBlockOf(err);
  if (!blocked) throw new Error(`expected an SsrfBlockedError, got ${String(err)}`);
  return blocked;
}

const strict = { allowPrivate: false };

describe("checkDestination", () => {
  it("accepts http and https URLs whose every address is public", async () => {
    await checkDestination("https://hooks.example.com/in", { ...strict, resolve: answers("93.184.215.14") });
    await checkDestination("http://8.8.8.8:8080/x", strict);
    await checkDestination("http://[2606:4700:4700::1111]/", strict);
  });

  it("refuses other schemes and junk", async () => {
    for (const url of ["ftp://example.com/", "file:///etc/passwd", "gopher://x/", "javascript:alert(1)"])
      expect((await refusal(checkDestination(url, strict))).reason).toBe("scheme");
    expect((await refusal(checkDestination("not a url", strict))).reason).toBe("invalid_url");
    expect((await refusal(checkDestination("/relative", strict))).reason).toBe("invalid_url");
  });

  it("refuses IP literals in forbidden ranges, in every spelling WHATWG URL normalizes", async () => {
    const literals = [
      "http://127.0.0.1/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0x7f000001/",
      "http://127.1/",
      "http://0177.0.0.1/",
      "http://127.0.0.1./",
      "http://[::1]:8080/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:7f00:1]/",
      "http://[0:0:0:0:0:ffff:7f00:1]/",
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "http://0.0.0.0/",
      "http://[64:ff9b::7f00:1]/",
      "http://[2002:7f00:1::]/",
      "http://[2001::1]/",
      "https://user:pass@192.168.1.1/",
    ];
    for (const url of literals) {
      const err = await refusal(checkDestination(url, strict));
      expect(err.reason, url).toBe("forbidden_address");
      expect(err.message, url).toMatch(/range/);
    }
  });

  it("refuses a name if ANY of its addresses is forbidden", async () => {
    const err = await refusal(
      checkDestination("https://mixed.example/", {
        ...strict,
        resolve: answers("93.184.215.14", "10.0.0.7"),
      }),
    );
    expect(err.reason).toBe("forbidden_address");
    expect(err.address).toBe("10.0.0.7");
    expect(err.message).toBe("mixed.example resolves to 10.0.0.7, in the private range 10.0.0.0/8");
  });

  it("refuses localhost through the system resolver", async () => {
    expect((await refusal(checkDestination("http://localhost:3000/", strict))).reason).toBe(
      "forbidden_address",
    );
  });

  it("refuses names that do not resolve", async () => {
    const err = await refusal(checkDestination("https://nope.example/", { ...strict, resolve: nxdomain }));
    expect(err.reason).toBe("unresolvable");
    expect(err.message).toMatch(/ENOTFOUND/);
    expect(
      (await refusal(checkDestination("https://x.example/", { ...strict, resolve: answers() }))).reason,
    ).toBe("unresolvable");
  });

  it("refuses metadata host names without asking DNS", async () => {
    for (const url of [
      "http://metadata/computeMetadata/v1/",
      "http://metadata.google.internal./",
      "http://METADATA/",
    ])
      expect((await refusal(checkDestination(url, { ...strict, resolve: nxdomain }))).reason).toBe(
        "forbidden_host",
      );
  });

  it("with allowPrivate, lets internal addresses through without resolving, but never metadata", async () => {
    const open = { allowPrivate: true, resolve: nxdomain };
    await checkDestination("http://127.0.0.1:3000/", open);
    await checkDestination("http://[::1]/", open);
    await checkDestination("http://internal.corp/", open);
    expect((await refusal(checkDestination("http://169.254.169.254/", open))).reason).toBe(
      "forbidden_address",
    );
    expect((await refusal(checkDestination("http://metadata.google.internal/", open))).reason).toBe(
      "forbidden_host",
    );
    expect((await refusal(checkDestination("ftp://127.0.0.1/", open))).reason).toBe("scheme");
  });
});

describe("createGuardedDispatcher", () => {
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
  });

  const post = (agent: ReturnType<typeof createGuardedDispatcher>, origin: string) =>
    agent.request({ origin, path: "/hook", method: "POST", body: "{}" });

  it("refuses at send time a name that resolved to a public address at registration and to loopback now", async () => {
    const dns = rebinding("93.184.215.14", "127.0.0.1");
    const url = `http://rebind.example:${rx.port}/hook`;
    await checkDestination(url, { ...strict, resolve: dns }); // registration: public, accepted
    const agent = createGuardedDispatcher({ allowPrivate: false, lookup: dns });
    try {
      const err = await refusal(post(agent, `http://rebind.example:${rx.port}`));
      expect(err).toBeInstanceOf(SsrfBlockedError);
      expect(err.address).toBe("127.0.0.1");
      expect(err.message).toMatch(/rebind\.example resolves to 127\.0\.0\.1, in the loopback range/);
      expect(dns.calls).toBe(2);
      expect(rx.requests).toHaveLength(0);
    } finally {
      await agent.close();
    }
  });

  it("with allowPrivate, the same request goes through to the address the lookup gave", async () => {
    const agent = createGuardedDispatcher({
      allowPrivate: true,
      lookup: rebinding("127.0.0.1", "127.0.0.1"),
    });
    try {
      const res = await post(agent, `http://rebind.example:${rx.port}`);
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      expect(rx.requests).toHaveLength(1);
      expect(rx.requests[0]?.headers.host).toBe(`rebind.example:${rx.port}`);
    } finally {
      await agent.close();
    }
  });

  it("answers both lookup shapes a socket may ask for (all addresses, or one)", async () => {
    for (const autoSelectFamily of [true, false]) {
      const agent = createGuardedDispatcher({
        allowPrivate: true,
        lookup: answers("127.0.0.1"),
        connect: { autoSelectFamily },
      });
      try {
        const res = await post(agent, `http://shape.example:${rx.port}`);
        expect(res.statusCode, `autoSelectFamily ${autoSelectFamily}`).toBe(200);
        await res.body.dump();
      } finally {
        await agent.close();
      }
      const strictAgent = createGuardedDispatcher({
        allowPrivate: false,
        lookup: answers("127.0.0.1"),
        connect: { autoSelectFamily },
      });
      try {
        expect((await refusal(post(strictAgent, `http://shape.example:${rx.port}`))).reason).toBe(
          "forbidden_address",
        );
      } finally {
        await strictAgent.close();
      }
    }
    expect(rx.requests).toHaveLength(2);
  });

  it("refuses IP literals (which never reach a lookup) and metadata names", async () => {
    const agent = createGuardedDispatcher({ allowPrivate: false, lookup: answers("93.184.215.14") });
    try {
      expect((await refusal(post(agent, rx.url))).reason).toBe("forbidden_address");
      expect((await refusal(post(agent, `http://[::1]:${rx.port}`))).reason).toBe("forbidden_address");
      expect((await refusal(post(agent, "http://metadata.google.internal"))).reason).toBe("forbidden_host");
      expect(rx.requests).toHaveLength(0);
    } finally {
      await agent.close();
    }
  });

  it("guards https the same way: the refusal comes before any TLS handshake", async () => {
    const agent = createGuardedDispatcher({ allowPrivate: false, lookup: answers("10.1.2.3") });
    try {
      expect((await refusal(post(agent, `https://tls.example:${rx.port}`))).address).toBe("10.1.2.3");
    } finally {
      await agent.close();
    }
  });

  it("checks every address of a name, and answers the family the socket asks for", async () => {
    const agent = createGuardedDispatcher({ allowPrivate: false, lookup: answers("93.184.215.14", "::1") });
    try {
      expect((await refusal(post(agent, `http://dual.example:${rx.port}`))).address).toBe("::1");
    } finally {
      await agent.close();
    }
  });

  it("passes DNS failures through as they are (not an SSRF refusal)", async () => {
    const agent = createGuardedDispatcher({ allowPrivate: false, lookup: nxdomain });
    try {
      const err = await post(agent, "http://nope.example").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ssrfBlockOf(err)).toBeUndefined();
      expect(err).toMatchObject({ code: "ENOTFOUND" });
    } finally {
      await agent.close();
    }
  });

  it("never follows redirects, even to an allowed destination", async () => {
    const target = await startReceiver();
    rx.script({ status: 302, headers: { location: `${target.url}/elsewhere` } });
    const agent = createGuardedDispatcher({ allowPrivate: true });
    try {
      const res = await post(agent, rx.url);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${target.url}/elsewhere`);
      await res.body.dump();
      expect(rx.requests).toHaveLength(1);
      expect(target.requests).toHaveLength(0);
    } finally {
      await agent.close();
      await target.close();
    }
  });
});

// Keeps outbound deliveries off internal networks. An endpoint URL is someone else's input, so it is
// checked twice: at registration (a clear 400 for an obviously internal URL) and again on every connect,
// inside the socket's own DNS lookup, so the address that was checked is the address connected to and a
// name that is re-pointed at 127.0.0.1 after registration (DNS rebinding) is refused at send time.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { type ForbiddenAddress, forbiddenAddress, isMetadataHostname } from "./ip-ranges.ts";

/** Why a destination was refused. */
export type SsrfBlockReason =
  "invalid_url" | "scheme" | "forbidden_host" | "forbidden_address" | "unresolvable";

/**
 * What a tenant is told when a host NAME is refused, whatever it resolved to (or failed to): the detail
 * would tell a tenant how the gateway's internal names resolve, so it goes to the log only.
 */
export const NAME_REFUSED = "the host must resolve to public addresses only";

/**
 * A destination Switchyard will not connect to. Thrown by `checkDestination` and, through undici, by a
 * request on a guarded dispatcher: a delivery that meets one should fail permanently, as a config error
 * (the endpoint's URL is the problem, not the event), and never be retried against the same URL.
 * `message` is for the log; `publicMessage` is what an API answer or a delivery's last error may show.
 */
export class SsrfBlockedError extends Error {
  readonly code = "ERR_SSRF_BLOCKED";
  /** The refusal as a tenant may see it: only what the URL itself says, never what a name resolved to. */
  readonly publicMessage: string;

  constructor(
    readonly reason: SsrfBlockReason,
    message: string,
    /** The refused IP address, when an address was the problem. */
    readonly address?: string,
    publicMessage: string = message,
  ) {
    super(message);
    this.name = "SsrfBlockedError";
    this.publicMessage = publicMessage;
  }
}

/** The SsrfBlockedError in `err` or its `cause` chain (undici may wrap connect errors), if any. */
export function ssrfBlockOf(err: unknown): SsrfBlockedError | undefined {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (e instanceof SsrfBlockedError) return e;
    e = e instanceof Error ? e.cause : undefined;
  }
  return undefined;
}

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The system resolver (getaddrinfo, as sockets use), every address, in the order the OS gives them. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    );
  });

export interface GuardOptions {
  /** Let private, loopback and other internal addresses through (never metadata services): dev, tests, trusted networks. */
  readonly allowPrivate: boolean;
}

const describe = (f: ForbiddenAddress): string =>
  `${f.kind.replace("_", "-")} range ${f.range}${f.embedded !== undefined ? ` (IPv4 ${f.embedded})` : ""}`;

/**
 * Throw unless `address` may be connected to. Metadata services are refused even with `allowPrivate`:
 * there is no development need to deliver webhooks to them, and they hand out cloud credentials.
 */
export function checkAddress(address: string, host: string, opts: GuardOptions): void {
  const forbidden = forbiddenAddress(address);
  if (forbidden === undefined || (opts.allowPrivate && forbidden.kind !== "metadata")) return;
  if (host === address)
    throw new SsrfBlockedError("forbidden_address", `${address} is in the ${describe(forbidden)}`, address);
  throw new SsrfBlockedError(
    "forbidden_address",
    `${host} resolves to ${address}, in the ${describe(forbidden)}`,
    address,
    NAME_REFUSED,
  );
}

/** Throw if `hostname` names a metadata service (checked before any DNS, whatever `allowPrivate` says). */
export function checkHostname(hostname: string): void {
  if (isMetadataHostname(hostname))
    throw new SsrfBlockedError("forbidden_host", `${hostname} is a cloud metadata service`);
}

/** The URL's host as an address or a name: brackets off IPv6 literals. */
function hostOf(url: URL): string {
  const h = url.hostname;
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
}

/** Parse and vet the parts of a URL that need no network: scheme, metadata names, IP literals. */
export function checkUrl(
  url: string | URL,
  opts: GuardOptions,
): { url: URL; host: string; isAddress: boolean } {
  let parsed: URL;
  try {
    // WHATWG parsing normalizes the odd IPv4 spellings (2130706433, 0x7f.1, 127.1) to dotted decimal.
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new SsrfBlockedError("invalid_url", "not a valid absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new SsrfBlockedError(
      "scheme",
      `scheme ${parsed.protocol.replace(/:$/, "")} is not allowed (http or https only)`,
    );
  const host = hostOf(parsed);
  checkHostname(host);
  const isAddress = isIP(host) !== 0;
  if (isAddress) checkAddress(host, host, opts);
  return { url: parsed, host, isAddress };
}

/**
 * Throw an SsrfBlockedError unless `url` is an http(s) URL whose host is public: an IP literal is checked
 * as it is, a name is resolved with `resolve` (default: the system resolver) and refused if ANY of its
 * addresses is forbidden, or if it does not resolve. With `allowPrivate`, names are not resolved at all.
 *
 * This is the registration check; it cannot stop DNS rebinding on its own (a name may resolve elsewhere
 * later), which is what `createGuardedDispatcher` is for.
 */
export async function checkDestination(
  url: string | URL,
  opts: GuardOptions & { readonly resolve?: Resolver },
): Promise<void> {
  const { host, isAddress } = checkUrl(url, opts);
  if (isAddress || opts.allowPrivate) return;
  let addresses: readonly LookupAddress[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(host);
  } catch (err) {
    const code =
      typeof err === "object" && err !== null && "code" in err ? String(err.code) : "lookup failed";
    throw new SsrfBlockedError("unresolvable", `${host} does not resolve (${code})`, undefined, NAME_REFUSED);
  }
  if (addresses.length === 0)
    throw new SsrfBlockedError("unresolvable", `${host} resolves to no address`, undefined, NAME_REFUSED);
  for (const a of addresses) checkAddress(a.address, host, opts);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `net.connect` lookup that resolves with `resolve` and hands the socket only addresses that passed. */
function guardedLookup(resolve: Resolver, opts: GuardOptions) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (all) => {
        const wanted =
          options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        try {
          if (wanted.length === 0)
            throw new SsrfBlockedError(
              "unresolvable",
              `${hostname} resolves to no usable address`,
              undefined,
              NAME_REFUSED,
            );
          // Every address, not just the first: with autoSelectFamily the socket may try any of them.
          for (const a of wanted) checkAddress(a.address, hostname, opts);
        } catch (err) {
          callback(err as NodeJS.ErrnoException, "");
          return;
        }
        const first = wanted[0] as LookupAddress;
        if (options.all === true) callback(null, [...wanted]);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
}

/** `T` minus `lookup`, member by member (a plain Omit over undici's union keeps only the common keys). */
type WithoutLookup<T> = T extends unknown ? Omit<T, "lookup"> : never;

export interface GuardedDispatcherOptions extends Omit<Agent.Options, "connect"> {
  readonly allowPrivate: boolean;
  /** Resolves host names at connect time (default: the system resolver). */
  readonly lookup?: Resolver;
  /** Socket options for undici's connector; `lookup` is ours. */
  readonly connect?: WithoutLookup<Partial<buildConnector.BuildOptions>>;
}

/**
 * An undici Agent that refuses to connect to forbidden destinations. IP-literal hosts are checked before
 * connecting; names are resolved by the socket through a lookup that checks every address it returns, so
 * there is no window between the check and the connect. A refused connect fails the request with an
 * SsrfBlockedError (see `ssrfBlockOf`). Like any undici dispatcher without a redirect interceptor it never
 * follows redirects: a 3xx comes back as the answer.
 */
export function createGuardedDispatcher(opts: GuardedDispatcherOptions): Agent {
  const { allowPrivate, lookup = systemResolver, connect = {}, ...agentOptions } = opts;
  const guard = { allowPrivate };
  const base = buildConnector({
    ...connect,
    lookup: guardedLookup(lookup, guard),
  });
  const connector: buildConnector.connector = (options, callback) => {
    try {
      checkHostname(options.hostname);
      // net.connect skips the lookup for an IP literal, so a literal is checked here.
      if (isIP(options.hostname) !== 0) checkAddress(options.hostname, options.hostname, guard);
    } catch (err) {
      queueMicrotask(() => callback(err as Error, null));
      return;
    }
    base(options, callback);
  };
  return new Agent({ ...agentOptions, connect: connector });
}

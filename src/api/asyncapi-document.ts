// GET /asyncapi.json is built here from the live config: one channel per queue sink (per distinct address
// when sources differ), servers from the sinks' brokers, and the queue message v1 as the only message.
// Sinks describe themselves without credentials; every host and string is scrubbed of URL userinfo again
// here, because this document is public. The operational events (asyncapi-operational.ts) are added
// whatever the config: every deployment sends them.
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import { createSink, sinkTraits } from "../sinks/registry.ts";
import type { Sink, SinkDescription } from "../sinks/sink.ts";
import { HOOK_MESSAGE, hookMessage, hookMessageSchema } from "./asyncapi-message.ts";
import { operationalSection } from "./asyncapi-operational.ts";

/** What a sink says about itself for one source: `sink.describe(subject)`. */
export type DescribeSink = (
  sink: string,
  subject: { source: string; tenant: string | undefined },
) => SinkDescription | undefined;

export type AsyncApiDocument = Record<string, unknown>;

/** Placeholders a sink address may contain (see src/sinks/template.ts) and what they stand for. */
const PARAMETERS: Record<string, { description: string; location?: string }> = {
  source: { description: "Source name of the hook.", location: "$message.payload#/source" },
  tenant: { description: "Tenant of the hook, `-` when it has none.", location: "$message.payload#/tenant" },
  id: { description: "Hook id.", location: "$message.payload#/id" },
};

/** `scheme://user:pass@host:port/path` or `user@host` → `host:port`. */
export function sanitizeHost(raw: string): string {
  const noScheme = raw.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  const authority = noScheme.split(/[/?#]/, 1)[0] ?? "";
  return authority.slice(authority.lastIndexOf("@") + 1);
}

/** Remove URL userinfo from every string of `value`, however deep. */
function scrub(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, "$1");
  if (Array.isArray(value)) return value.map(scrub);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
  }
  return value;
}

const componentId = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, "_");

interface ChannelGroup {
  readonly description: SinkDescription;
  readonly sources: { name: string; tenant: string | undefined }[];
}

/** Group a sink's per-source descriptions by where they publish; only `payload: "message"` ones count. */
function channelGroups(config: Config, sink: string, describe: DescribeSink): ChannelGroup[] {
  const groups = new Map<string, ChannelGroup>();
  for (const [name, source] of Object.entries(config.sources)) {
    if (!source.sinks.includes(sink)) continue;
    const description = describe(sink, { source: name, tenant: source.tenant });
    if (description?.payload !== "message") continue;
    const key = JSON.stringify([
      description.protocol,
      description.host,
      description.address,
      description.bindings,
    ]);
    const group = groups.get(key) ?? { description, sources: [] };
    group.sources.push({ name, tenant: source.tenant });
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The AsyncAPI 3.0 document of `config`'s queue sinks and of the operational events. */
export function buildAsyncApiDocument(
  config: Config,
  describe: DescribeSink,
  version = "1.0.0",
): AsyncApiDocument {
  const servers: Record<string, unknown> = {};
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};

  for (const sink of Object.keys(config.sinks).sort()) {
    const groups = channelGroups(config, sink, describe);
    groups.forEach(({ description, sources }, i) => {
      const channelId = componentId(groups.length === 1 ? sink : `${sink}-${i + 1}`);
      const serverRefs = description.host
        .split(",")
        .map(sanitizeHost)
        .filter((host) => host.length > 0)
        .map((host) => {
          const id = componentId(`${description.protocol}-${host}`);
          servers[id] = { host, protocol: description.protocol };
          return { $ref: `#/servers/${id}` };
        });
      const parameters: Record<string, unknown> = {};
      for (const [, name] of description.address.matchAll(/\{([^}]+)\}/g)) {
        if (name === undefined) continue;
        const known = PARAMETERS[name] ?? { description: `Placeholder {${name}}.` };
        parameters[name] = name === "source" ? { ...known, enum: sources.map((s) => s.name) } : { ...known };
      }
      const from = sources.map((s) => (s.tenant ? `${s.name} (tenant ${s.tenant})` : s.name)).join(", ");
      channels[channelId] = {
        address: description.address,
        title: `Sink ${sink}`,
        description: `Hooks of the sources ${from}, published by the ${description.protocol} sink \`${sink}\`.`,
        ...(serverRefs.length > 0 ? { servers: serverRefs } : {}),
        ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
        messages: { hook: { $ref: `#/components/messages/${HOOK_MESSAGE}` } },
        ...(description.bindings ? { bindings: description.bindings } : {}),
      };
      operations[componentId(`publish-${channelId}`)] = {
        action: "send",
        title: `Publish to sink ${sink}`,
        summary: "Switchyard publishes each hook of these sources here, at least once.",
        channel: { $ref: `#/channels/${channelId}` },
        messages: [{ $ref: `#/channels/${channelId}/messages/hook` }],
      };
    });
  }

  const operational = operationalSection();
  return scrub({
    asyncapi: "3.0.0",
    info: {
      title: "Switchyard queue sinks and operational events",
      version,
      description:
        "Channels Switchyard publishes received webhooks to (RabbitMQ, Kafka), built from the running config, " +
        "and the operational events (switchyard.*) it sends as signed webhooks to subscribed endpoints.",
    },
    defaultContentType: "application/json",
    servers,
    channels: { ...channels, ...operational.channels },
    operations: { ...operations, ...operational.operations },
    components: {
      messages: { [HOOK_MESSAGE]: hookMessage, ...operational.messages },
      schemas: { [HOOK_MESSAGE]: hookMessageSchema, ...operational.schemas },
    },
  }) as AsyncApiDocument;
}

/**
 * The document for `config`, asking real sink instances to describe themselves: those whose type has a
 * protocol a consumer reads (its plugin's traits). Sinks connect lazily, so creating them here opens
 * nothing; they are closed again before this returns.
 */
export async function asyncApiForConfig(config: Config, logger: Logger): Promise<AsyncApiDocument> {
  const sinks = new Map<string, Sink>();
  try {
    for (const [name, sinkConfig] of Object.entries(config.sinks)) {
      if (sinkTraits(sinkConfig.type)?.protocol === undefined) continue;
      const deps = { logger, defaultClaimCheckBytes: config.dispatch.claim_check_bytes };
      sinks.set(name, createSink(name, sinkConfig, deps));
    }
    return buildAsyncApiDocument(config, (sink, subject) => sinks.get(sink)?.describe(subject));
  } finally {
    await Promise.all([...sinks.values()].map((s) => s.close().catch(() => undefined)));
  }
}

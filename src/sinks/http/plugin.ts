// The `http` sink type: forwards the raw hook body to a URL; a 2xx is durable, no claim check.
import type { SinkPlugin } from "../plugin.ts";
import { type HttpSinkConfig, httpSinkSchema } from "./config.ts";
import { createHttpSink } from "./http-sink.ts";

export const httpSink: SinkPlugin<HttpSinkConfig> = {
  type: "http",
  schema: httpSinkSchema,
  traits: { protocol: "http", durable: true, claimCheck: false },
  create: createHttpSink,
};

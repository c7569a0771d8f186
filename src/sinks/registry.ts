// Sink types by name. Adding a sink type is one folder under src/sinks/ and one line here.
import type { SinkConfig } from "../config/schema.ts";
import { createAmqpSink } from "./amqp/amqp-sink.ts";
import { createHttpSink } from "./http/http-sink.ts";
import { createKafkaSink } from "./kafka/kafka-sink.ts";
import { createLogSink } from "./log/log-sink.ts";
import type { Sink, SinkDeps } from "./sink.ts";

/** Build the sink `name` from its config. `claimCheckBytes` is the dispatch default for queue sinks. */
export function createSink(name: string, config: SinkConfig, deps: SinkDeps): Sink {
  switch (config.type) {
    case "http":
      return createHttpSink(name, config, deps);
    case "amqp":
      return createAmqpSink(name, config, deps);
    case "kafka":
      return createKafkaSink(name, config, deps);
    case "log":
      return createLogSink(name, config, deps);
  }
}

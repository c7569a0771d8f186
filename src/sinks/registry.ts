// Sink types by name. Adding a sink type is one folder under src/sinks/ exporting a SinkPlugin and one
// line in BUILT_IN below (or one `registerSink` call, which is how tests add theirs). Everything else
// that needs a type's schema, traits or factory asks here.
import { amqpSink } from "./amqp/plugin.ts";
import { httpSink } from "./http/plugin.ts";
import { kafkaSink } from "./kafka/plugin.ts";
import { logSink } from "./log/plugin.ts";
import type { SinkConfig, SinkPlugin, SinkTraits } from "./plugin.ts";
import type { Sink, SinkDeps } from "./sink.ts";

export type { SinkConfig, SinkPlugin, SinkTraits } from "./plugin.ts";

const BUILT_IN: readonly SinkPlugin[] = [httpSink, amqpSink, kafkaSink, logSink];

const plugins = new Map<string, SinkPlugin>(BUILT_IN.map((plugin) => [plugin.type, plugin]));
let generation = 0;

/** Add a sink type; its `type` must be new. Configs parsed after this may name it. */
export function registerSink(plugin: SinkPlugin): void {
  if (plugins.has(plugin.type)) throw new Error(`sink type "${plugin.type}" is registered already`);
  plugins.set(plugin.type, plugin);
  generation++;
}

/** Every sink type, in registration order (the built-in ones first). */
export function sinkPlugins(): readonly SinkPlugin[] {
  return [...plugins.values()];
}

/** Bumped by each registration: a schema built from the plugins is stale once this changes. */
export function sinkRegistryGeneration(): number {
  return generation;
}

function pluginOf(type: string): SinkPlugin {
  const plugin = plugins.get(type);
  if (plugin === undefined) {
    throw new Error(`unknown sink type "${type}" (registered: ${[...plugins.keys()].join(", ")})`);
  }
  return plugin;
}

/** The traits of sink type `type`; undefined for a type nobody registered (a config that failed to parse). */
export function sinkTraits(type: string): SinkTraits | undefined {
  return plugins.get(type)?.traits;
}

/** Build the sink `name` from its parsed config. */
export function createSink(name: string, config: SinkConfig, deps: SinkDeps): Sink {
  return pluginOf(config.type).create(name, config, deps);
}

// The `sinks:` section: one schema per sink type, told apart by `type`. Each type's schema is its
// plugin's (src/sinks/<type>/), so this union is built from the registry and knows no type by name.
import { z } from "zod";
import { sinkPlugins } from "../sinks/registry.ts";

export type { SinkConfig } from "../sinks/registry.ts";

/** The schema of one entry of `sinks:`, over every registered sink type. */
export function sinkSchema() {
  const [first, ...rest] = sinkPlugins().map((plugin) => plugin.schema);
  if (first === undefined) throw new Error("no sink types are registered");
  return z.discriminatedUnion("type", [first, ...rest]);
}

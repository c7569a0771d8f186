// The `log` sink's config: the level its one line per hook is written at.
import { z } from "zod";
import { sinkConfigSchema } from "../plugin.ts";

export const logSinkSchema = sinkConfigSchema("log", {
  level: z.enum(["trace", "debug", "info", "warn", "error"]).default("info"),
});
export type LogSinkConfig = z.infer<typeof logSinkSchema>;

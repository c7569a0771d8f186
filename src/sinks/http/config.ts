// The `http` sink's config: where to POST each hook, with what headers, and the secret it signs with.
import { z } from "zod";
import { positiveInt } from "../../config/fields.ts";
import { sinkConfigSchema } from "../plugin.ts";

export const httpSinkSchema = sinkConfigSchema("http", {
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(["POST", "PUT", "PATCH"]).default("POST"),
  headers: z.record(z.string(), z.string()).default({}),
  timeout_ms: positiveInt.default(10_000),
  secret: z.string().min(1).optional(),
});
export type HttpSinkConfig = z.infer<typeof httpSinkSchema>;

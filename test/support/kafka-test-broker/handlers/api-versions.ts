// ApiVersions (key 18), v0–v2: the first request kafkajs sends on every connection. kafkajs tries v2
// first and then picks, per API, min(its newest version, our maxVersion), so advertising exactly the
// versions the other handlers implement steers it onto them.
import { Writer } from "../wire.ts";
import type { ApiRange, HandlerResult } from "./types.ts";

export const apiVersionsRange: ApiRange = { key: 18, name: "ApiVersions", minVersion: 0, maxVersion: 2 };
const UNSUPPORTED_VERSION = 35;

/** The ApiVersions answer listing `apis`. An unsupported requested version gets error 35 in the v0 layout. */
export function apiVersionsResponse(apis: readonly ApiRange[], version: number): HandlerResult {
  const supported = version >= apiVersionsRange.minVersion && version <= apiVersionsRange.maxVersion;
  const w = new Writer().int16(supported ? 0 : UNSUPPORTED_VERSION);
  w.array(apis, (a, api) => a.int16(api.key).int16(api.minVersion).int16(api.maxVersion));
  if (supported && version >= 1) w.int32(0); // throttle_time_ms
  return { body: w.toBuffer(), delayMs: 0 };
}

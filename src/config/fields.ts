// The building blocks every part of the config schema shares: names that end up in keys and URLs,
// numbers that may arrive quoted from `${VAR}`, and the retry and breaker shapes that several
// sections override piece by piece.
import { z } from "zod";
import { strict } from "./unknown-keys.ts";

/** Names that end up in URLs, Redis keys and BullMQ queue names: no `:`, bounded. */
export const NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const name = z.string().regex(NAME, "must match [A-Za-z0-9_-]{1,64}");
// Numbers may arrive quoted from `"${VAR:-3000}"`; coercion keeps interpolated values usable.
export const positiveInt = z.coerce.number().int().positive();
export const nonNegativeInt = z.coerce.number().int().nonnegative();

export const retry = strict.object({
  base_ms: positiveInt.default(1000),
  max_ms: positiveInt.default(3_600_000),
  max_attempts: positiveInt.max(1000).default(25),
  max_elapsed_ms: positiveInt.default(86_400_000),
});
export type RetryConfig = z.infer<typeof retry>;

export const breaker = strict.object({
  failures: positiveInt.default(5),
  open_ms: positiveInt.default(30_000),
  max_open_ms: positiveInt.default(300_000),
});
export type BreakerConfig = z.infer<typeof breaker>;

/** pino's levels; `silent` turns the log off. Here, not in schema.ts, so the logger needs no schema. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

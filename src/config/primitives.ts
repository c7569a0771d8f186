// The small value schemas every part of the config schema is built from.
import { z } from "zod";

/** Names that end up in URLs, Redis keys and BullMQ queue names: no `:`, bounded. */
export const NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const name = z.string().regex(NAME, "must match [A-Za-z0-9_-]{1,64}");
// Numbers may arrive quoted from `"${VAR:-3000}"`; coercion keeps interpolated values usable.
export const positiveInt = z.coerce.number().int().positive();
export const nonNegativeInt = z.coerce.number().int().nonnegative();

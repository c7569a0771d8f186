// How a row's attempt history is stored: one compact JSON object per attempt, newest last, joined by
// newlines in the row's `ah` field (JSON.stringify never writes a raw newline, so a line is an attempt).
// The history lives in the row itself, so it expires and goes with it; the finish script appends to it
// and keeps the newest ATTEMPT_HISTORY.count lines within ATTEMPT_HISTORY.bytes (append-attempt.lua).
import type { Attempt } from "../domain/attempt.ts";
import type { ErrorClass } from "../domain/error-class.ts";

/** The row field that holds the history. */
export const HISTORY_FIELD = "ah";

/** The most bytes one encoded attempt takes: a longer one gives up part of its excerpt. */
const MAX_ENTRY_BYTES = 2048;

interface Stored {
  at: number;
  ms: number;
  sc?: number;
  ec?: ErrorClass;
  r?: string;
  x?: string;
  sig?: Readonly<Record<string, string>>;
}

/** One attempt as one history line (at most MAX_ENTRY_BYTES, its excerpt cut to fit). */
export function encodeAttempt(a: Attempt): string {
  const stored: Stored = { at: a.at, ms: a.durationMs };
  if (a.statusCode !== undefined) stored.sc = a.statusCode;
  if (a.errorClass !== undefined) stored.ec = a.errorClass;
  if (a.reason !== undefined) stored.r = a.reason;
  if (a.signatureHeaders !== undefined) stored.sig = a.signatureHeaders;
  let excerpt = a.responseExcerpt;
  for (;;) {
    if (excerpt !== undefined && excerpt !== "") stored.x = excerpt;
    else delete stored.x;
    const line = JSON.stringify(stored);
    if (Buffer.byteLength(line) <= MAX_ENTRY_BYTES || excerpt === undefined || excerpt === "") return line;
    // Escapes can make an excerpt several times its length as JSON: halve it until the line fits.
    excerpt = excerpt.slice(0, Math.floor(excerpt.length / 2));
  }
}

/** The attempts a history field holds, oldest first; a line that does not parse is skipped. */
export function decodeAttempts(raw: string | undefined): Attempt[] {
  if (raw === undefined || raw === "") return [];
  const out: Attempt[] = [];
  for (const line of raw.split("\n")) {
    let s: Partial<Stored>;
    try {
      s = JSON.parse(line) as Partial<Stored>;
    } catch {
      continue;
    }
    if (typeof s.at !== "number" || typeof s.ms !== "number") continue;
    out.push({
      at: s.at,
      durationMs: s.ms,
      statusCode: s.sc,
      errorClass: s.ec,
      reason: s.r,
      responseExcerpt: s.x,
      signatureHeaders: s.sig,
    });
  }
  return out;
}

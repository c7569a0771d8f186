// The hooks bench:e2e and bench:timeline send: signed Standard Webhooks requests whose body is exactly
// 1 KiB of JSON and carries the time it was sent, so the receiver can tell send → arrival for every
// delivery without any bookkeeping shared between processes (all of them read the same wall clock).
import { signStandardWebhook } from "../../../src/domain/signing.ts";

export const BODY_BYTES = 1024;
const PAD = "x".repeat(BODY_BYTES);
const SENT = /^\{"sent":([0-9.]+),/;

/** Wall-clock time with sub-millisecond precision, comparable across processes on this machine. */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

/** A 1 KiB JSON body stamped with `sentAt` (ms since the epoch). */
export function hookBody(sentAt: number): string {
  const head = `{"sent":${sentAt.toFixed(3)},"type":"invoice.paid","data":{"pad":"`;
  const tail = `"}}`;
  return head + PAD.slice(0, BODY_BYTES - head.length - tail.length) + tail;
}

/** The send time stamped in a body by `hookBody`, or NaN. */
export function sentAtOf(body: Buffer): number {
  const m = SENT.exec(body.toString("latin1", 0, 40));
  return m ? Number(m[1]) : NaN;
}

let counter = 0;

/** Headers and body of one signed hook sent now (a fresh webhook-id each, so none is a duplicate). */
export function signedHook(secret: string): { body: string; headers: Record<string, string> } {
  const sentAt = wallMs();
  const body = hookBody(sentAt);
  const signed = signStandardWebhook({
    id: `msg_${process.pid}_${counter++}`,
    timestampS: sentAt / 1000,
    body: Buffer.from(body),
    secrets: [secret],
  });
  return { body, headers: { "content-type": "application/json", ...signed } };
}

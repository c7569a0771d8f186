// The version gate of the BullMQ adapter: the persist script writes jobs in BullMQ's storage layout
// (add-standard-job.lua), which is BullMQ's internals, not its API, so it may do so only with the
// release the contract test (test/integration/bullmq-job-layout.test.ts) compared it against.
import { createRequire } from "node:module";

/** The BullMQ release whose standard-job layout add-standard-job.lua writes. */
export const LAYOUT_BULLMQ_VERSION = "5.81.5";

/** The BullMQ release installed. */
export function installedBullmqVersion(): string {
  return (createRequire(import.meta.url)("bullmq/package.json") as { version: string }).version;
}

/** Whether this process may write jobs in the script: its BullMQ is the verified release. */
export function layoutVerified(installed: string = installedBullmqVersion()): boolean {
  return installed === LAYOUT_BULLMQ_VERSION;
}

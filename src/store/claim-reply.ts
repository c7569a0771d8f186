// What a claim of a delivery row answers, and how the claim script's reply reads as one: kept apart
// from the store so the shape an attempt runs on is read in one place.
import type { ReplayId } from "../domain/ids.ts";

export type ClaimResult =
  | {
      readonly kind: "ok";
      readonly fence: number;
      /** This attempt's number (1 for the first). */
      readonly attempt: number;
      readonly firstAttemptAt: number;
      readonly replayId: ReplayId | undefined;
      /** The parent fields asked for, in order (undefined where the parent has none). */
      readonly parent: readonly (Buffer | undefined)[];
    }
  | { readonly kind: "leased"; readonly until: number }
  /** No such row. `parentExists` false: nor its parent (a job of a hook not written yet, or never). */
  | { readonly kind: "missing"; readonly parentExists: boolean }
  | { readonly kind: "delivered" | "dead" };

/** One claim's reply (see claim-deliveries-n.lua). */
export function parseClaim(reply: readonly (Buffer | null)[]): ClaimResult {
  const kind = reply[0]?.toString();
  switch (kind) {
    case "ok":
      return {
        kind,
        fence: Number(reply[1]?.toString()),
        attempt: Number(reply[2]?.toString()),
        firstAttemptAt: Number(reply[3]?.toString()),
        replayId: (reply[4]?.toString() || undefined) as ReplayId | undefined,
        parent: reply.slice(5).map((v) => v ?? undefined),
      };
    case "leased":
      return { kind, until: Number(reply[1]?.toString()) };
    case "missing":
      return { kind, parentExists: reply[1]?.toString() === "1" };
    case "delivered":
    case "dead":
      return { kind };
    case undefined:
    default:
      throw new Error(`unexpected claim reply ${String(kind)}`);
  }
}

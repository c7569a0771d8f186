// What a replay selects and the states it moves through, shared by the API that creates and controls
// replays, the store that keeps them and the runner that carries them out.
import type { DlqFilter } from "./dlq.ts";

/** The DLQ filter of a replay (tenant comes from the token, not the request), plus explicit ids. */
export interface ReplayFilter extends Omit<DlqFilter, "tenant"> {
  /** DLQ entry ids (`<hook id>-<sink>`) or hook ids (every dead sink of that hook). */
  readonly ids?: readonly string[];
}

export type ReplayState = "running" | "paused" | "cancelled" | "done";
export const REPLAY_STATES: readonly ReplayState[] = ["running", "paused", "cancelled", "done"];

/** States a replay never leaves. */
export function isFinal(state: ReplayState): boolean {
  switch (state) {
    case "cancelled":
    case "done":
      return true;
    case "running":
    case "paused":
      return false;
  }
}

/** Where a replay has got to: a position in a DLQ index, or how many explicit targets are done. */
export type ReplayCursor =
  | { readonly kind: "index"; readonly score: number; readonly id: string }
  | { readonly kind: "list"; readonly at: number };

/** Defaults and bounds of `rate_per_s` and of explicit ids. */
export const DEFAULT_RATE_PER_S = 1000;
export const MAX_RATE_PER_S = 100_000;
export const MAX_REPLAY_IDS = 10_000;

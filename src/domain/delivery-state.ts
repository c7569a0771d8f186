// What `GET /v1/hooks/:id` shows per sink, kept on the hook record by the workers.
import type { ErrorClass } from "./error-class.ts";

export type SinkDeliveryStatus = "pending" | "delivered" | "retrying" | "dead";
export const SINK_DELIVERY_STATUSES: readonly SinkDeliveryStatus[] = [
  "pending",
  "delivered",
  "retrying",
  "dead",
];

export interface SinkDeliveryState {
  readonly state: SinkDeliveryStatus;
  readonly attempts: number;
  readonly first_attempt_at?: number;
  readonly last_attempt_at?: number;
  readonly next_attempt_at?: number;
  readonly delivered_at?: number;
  readonly last_error?: string;
  readonly error_class?: ErrorClass;
  readonly replay_id?: string;
}

export const PENDING: SinkDeliveryState = { state: "pending", attempts: 0 };

// The shapes of the /v1 answers the portal's pages render (as the API's views write them).

export interface EndpointJson {
  readonly id: string;
  readonly url: string;
  readonly event_types: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly rate_limit_per_s?: number;
  readonly disabled: boolean;
  readonly disabled_reason?: string;
  readonly description?: string;
  readonly created_at?: string;
  readonly updated_at?: string;
  readonly failing_since?: string;
}

export interface DeliveryJson {
  readonly delivery_id: string;
  readonly state: string;
  readonly attempts: number;
  readonly first_attempt_at?: string;
  readonly last_attempt_at?: string;
  readonly next_attempt_at?: string;
  readonly delivered_at?: string;
  readonly dead_at?: string;
  readonly last_error?: string;
  readonly error_class?: string;
  readonly last_status_code?: number;
  readonly replay_id?: string;
  readonly dlq_id?: string;
  readonly endpoint_id?: string;
  readonly event_id?: string;
  readonly event_type?: string;
}

export interface ReplayJson {
  readonly id: string;
  readonly state: string;
  readonly filter: Readonly<Record<string, unknown>>;
  readonly matched: number;
  readonly moved: number;
  readonly failed: number;
  readonly total_estimate?: number;
  readonly created_at?: string;
  readonly finished_at?: string;
}

export interface Page<T> {
  readonly data: readonly T[];
  readonly next_cursor?: string | null;
}

// Generated from openapi/openapi.json by `npm run openapi:write`: do not edit.
export interface paths {
  "/healthz": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Process is alive */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Alive. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @enum {string} */
              status: "ok";
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/readyz": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Redis is reachable and the process is not draining */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Ready. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              /** @enum {string} */
              status: "ready";
            };
          };
        };
        /** @description not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/metrics": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Prometheus text format. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "text/plain": string;
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/asyncapi.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** AsyncAPI 3.0 document of the queue sinks' channels (no credentials) */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description AsyncAPI document. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/openapi.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description OpenAPI 3.1 document. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              [key: string]: unknown;
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{source}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive a webhook for a source
     * @description Verify, dedup and persist a webhook; answered only after Redis acknowledged the record and its jobs.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Source name. */
          source: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "*/*": string;
        };
      };
      responses: {
        /** @description Duplicate of a hook seen within the dedup TTL; nothing enqueued. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["IngestDuplicate"];
          };
        };
        /** @description Accepted. */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["IngestAccepted"];
          };
        };
        /** @description verification_failed: bad or missing signature, or a stale timestamp. */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unknown_source: no such source (or tenant for it). */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description overloaded (with Retry-After). */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable or shutting_down (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/webhooks/{tenant}/{source}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive a webhook for a source, tenant from the path
     * @description Verify, dedup and persist a webhook; answered only after Redis acknowledged the record and its jobs.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description A tenant the source lists in `tenants`, or its fixed `tenant`; any other is 404. */
          tenant: string;
          /** @description Source name. */
          source: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "*/*": string;
        };
      };
      responses: {
        /** @description Duplicate of a hook seen within the dedup TTL; nothing enqueued. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["IngestDuplicate"];
          };
        };
        /** @description Accepted. */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["IngestAccepted"];
          };
        };
        /** @description verification_failed: bad or missing signature, or a stale timestamp. */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unknown_source: no such source (or tenant for it). */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large. */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description overloaded (with Retry-After). */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable or shutting_down (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/admin/queues": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Bull Board dashboard over every queue (HTML; basic auth with the token as password)
     * @description The board's own writes (retry, clean, promote, …) are refused from pages of other origins (403); its POSTs must be JSON (415). A tenant-bound token may not open it (404).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Dashboard. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "text/html": string;
          };
        };
        /** @description unauthorized: no valid admin token. */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: a tenant-bound token. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/hooks/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A hook record and its per-sink delivery state */
    get: {
      parameters: {
        query?: {
          /** @description `body` adds body_base64. */
          include?: string;
        };
        header?: never;
        path: {
          /** @description Hook id (hk_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The record. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Hook"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/claims/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Claim check: the body bytes of a hook, exactly as received
     * @description With a valid signed URL (exp, sig) no token is needed.
     */
    get: {
      parameters: {
        query?: {
          /** @description Signed URL: expiry, Unix seconds. */
          exp?: string;
          /** @description Signed URL: base64url HMAC-SHA256 of `id.exp`. */
          sig?: string;
        };
        header?: never;
        path: {
          /** @description Claim id (the hook id). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The body, as an application/octet-stream attachment. */
        200: {
          headers: {
            /** @description Hex sha256 of the body. */
            "x-switchyard-sha256": string;
            [name: string]: unknown;
          };
          content: {
            "application/octet-stream": string;
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/dlq": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dead-lettered deliveries, newest first, without bodies */
    get: {
      parameters: {
        query?: {
          /** @description Source name (inbound entries). */
          source?: string;
          /** @description Sink name (inbound entries). */
          sink?: string;
          /** @description Endpoint id, ep_… (outbound entries). */
          endpoint?: string;
          /** @description permanent, throttled or transient. */
          error_class?: "permanent" | "throttled" | "transient";
          /** @description ISO 8601 or epoch ms. */
          since?: string;
          /** @description ISO 8601 or epoch ms. */
          until?: string;
          /** @description Page size, 1 to 1000 (default 100). */
          limit?: number;
          /** @description next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of entries. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["DlqEntry"][];
              /** @description null on the last page. */
              next_cursor: string | null;
            };
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/dlq/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Purge one DLQ entry */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description DLQ id (the delivery id). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Purged. */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/quarantine": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Hooks that failed verification and were kept, newest first */
    get: {
      parameters: {
        query?: {
          /** @description Page size, 1 to 1000 (default 100). */
          limit?: number;
          /** @description Only entries received before this instant (ISO 8601 or epoch ms). */
          before?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The entries, without bodies. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["QuarantinedHook"][];
            };
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/quarantine/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One quarantined hook */
    get: {
      parameters: {
        query?: {
          /** @description `body` adds body_base64. */
          include?: string;
        };
        header?: never;
        path: {
          /** @description Hook id (hk_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The entry. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["QuarantinedHook"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/replays": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Replays, newest first (a tenant-bound token sees its own) */
    get: {
      parameters: {
        query?: {
          /** @description Only replays in this state. */
          state?: "running" | "paused" | "cancelled" | "done";
          /** @description Page size, 1 to 1000 (default 100). */
          limit?: number;
          /** @description next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of replays. With a state filter a page may hold fewer than `limit`: follow next_cursor. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["Replay"][];
              /** @description null on the last page. */
              next_cursor: string | null;
            };
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    /** Start a rate-limited replay of matching DLQ entries */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["ReplayInput"];
        };
      };
      responses: {
        /** @description Replay started. */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Replay"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description too_many_replays: the tenant has replays.max_per_tenant replays running or paused. */
        429: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/replays/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Replay progress */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Replay id (rp_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Progress. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Replay"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Pause, resume or cancel a replay */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Replay id (rp_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["ReplayPatch"];
        };
      };
      responses: {
        /** @description Updated. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Replay"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description conflict: the replay has already ended (done or cancelled). */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    trace?: never;
  };
  "/v1/breakers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Circuit breakers: every sink's and the endpoints' that are not closed
     * @description A tenant-bound token sees no sinks (they serve every tenant), only its own endpoints. At most 10000 endpoints are looked at per request (endpoints_truncated says when more exist).
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The breakers. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              sinks: components["schemas"]["SinkBreaker"][];
              endpoints: components["schemas"]["EndpointBreaker"][];
              endpoints_checked: number;
              endpoints_truncated: boolean;
            };
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/endpoints": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Outbound endpoints in creation order, without secrets */
    get: {
      parameters: {
        query?: {
          /** @description Only this tenant's (a tenant-bound token sees only its own). */
          tenant?: string;
          /** @description Page size, 1 to 1000 (default 100). */
          limit?: number;
          /** @description next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of endpoints. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["Endpoint"][];
              /** @description null on the last page. */
              next_cursor: string | null;
            };
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    /** Register an outbound endpoint (its URL must not be internal) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["EndpointInput"];
        };
      };
      responses: {
        /** @description Created; the secret is shown only here. */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["EndpointCreated"];
          };
        };
        /** @description invalid_request: a field is invalid, or the URL is refused (internal destination). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description too_many_endpoints: the deployment's endpoint limit is reached. */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/endpoints/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One outbound endpoint, without its secret */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The endpoint. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Endpoint"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    /** Remove an endpoint */
    delete: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Removed. */
        204: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    options?: never;
    head?: never;
    /** Change an endpoint (null clears description or rate_limit_per_s; the tenant is fixed) */
    patch: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["EndpointPatch"];
        };
      };
      responses: {
        /** @description Updated. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Endpoint"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    trace?: never;
  };
  "/v1/endpoints/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Make a new signing secret; the previous one keeps signing for 24 h */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: {
        content: {
          "application/json": components["schemas"]["RotateSecretInput"];
        };
      };
      responses: {
        /** @description Rotated; the new secret is shown only here. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["EndpointWithSecret"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Publish an event to every subscribed, enabled endpoint of its tenant */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["EventInput"];
        };
      };
      responses: {
        /** @description One delivery row per matching endpoint, written before anything was enqueued. */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["PublishResult"];
          };
        };
        /** @description invalid_request: the event is invalid (a switchyard.* type included: reserved); nothing was written. */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: a tenant this token may not publish for; nothing was written. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description conflict: the id belongs to an event of this tenant with another type. */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/events/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A published event */
    get: {
      parameters: {
        query?: {
          /** @description With a token not bound to a tenant: the tenant whose event id this is (none: a tenantless event). */
          tenant?: string;
        };
        header?: never;
        path: {
          /** @description Event id (ev_…, or the publisher's own id), within the caller's tenant. */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The event. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Event"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/events/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One delivery per endpoint: state, attempts, next attempt, last status code */
    get: {
      parameters: {
        query?: {
          /** @description With a token not bound to a tenant: the tenant whose event id this is (none: a tenantless event). */
          tenant?: string;
        };
        header?: never;
        path: {
          /** @description Event id (ev_…, or the publisher's own id), within the caller's tenant. */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The deliveries. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["EventDelivery"][];
            };
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/deliveries/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One delivery (inbound or outbound) with its attempt history
     * @description Another tenant's delivery answers 404, like a missing one.
     */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Delivery id (dl_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The delivery. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["DeliveryWithAttempts"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/endpoints/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An endpoint's deliveries, newest first
     * @description A sparse state filter may answer a short (even empty) page with a next_cursor: follow it.
     */
    get: {
      parameters: {
        query?: {
          /** @description Only deliveries in this state. */
          state?: "pending" | "retrying" | "delivered" | "dead";
          /** @description Only deliveries created at or after this time (ISO 8601 or ms). */
          since?: string;
          /** @description Page size, 1 to 1000 (default 100). */
          limit?: number;
          /** @description next_cursor of the previous page. */
          cursor?: string;
        };
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description A page of deliveries. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["DeliveryListed"][];
              /** @description null on the last page. */
              next_cursor: string | null;
            };
          };
        };
        /** @description invalid_request: a bad state, since, limit or cursor. */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/endpoints/{id}/stats": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An endpoint's health over the last hour and day */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description The endpoint's health. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["EndpointStats"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/event-types": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The event catalog: the built-in operational types (switchyard.*), then types declared in config (outbound.event_types) and by API */
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Every declared event type, by name. */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": {
              data: components["schemas"]["EventType"][];
            };
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    put?: never;
    /** Declare (or redeclare) an event type (a token bound to no tenant) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["EventTypeInput"];
        };
      };
      responses: {
        /** @description Redeclared (replaced). */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["EventType"];
          };
        };
        /** @description Declared. */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["EventType"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a tenant-bound token, or a write from a page of another origin. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description conflict: declared in config, or the catalog is full. */
        409: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/portal/sessions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mint a single-use link into the tenant portal (an unscoped token, or one of that tenant) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          "application/json": components["schemas"]["PortalSessionInput"];
        };
      };
      responses: {
        /** @description The link. */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["PortalLink"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: a token bound to another tenant. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/v1/endpoints/{id}/test-event": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Publish a test event to this endpoint only (type switchyard.test unless named) */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          /** @description Endpoint id (ep_…). */
          id: string;
        };
        cookie?: never;
      };
      requestBody?: {
        content: {
          "application/json": components["schemas"]["TestEventInput"];
        };
      };
      responses: {
        /** @description Published, as POST /v1/events answers. */
        202: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["PublishResult"];
          };
        };
        /** @description invalid_request: a field, a query parameter or the body is invalid (the message names it). */
        400: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unauthorized: no valid admin token (Authorization: Bearer <token>). */
        401: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description forbidden: a write sent from a page of another origin that admin.allowed_origins does not list. */
        403: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description not_found: no such id, or it belongs to a tenant the token is not bound to. */
        404: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description payload_too_large: the body exceeds its cap (the connection is closed). */
        413: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description unsupported_media_type: a write must be Content-Type: application/json, body or not. */
        415: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
        /** @description store_unavailable, shutting_down or not_ready (with Retry-After). */
        503: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            "application/json": components["schemas"]["Error"];
          };
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      error: {
        /**
         * @description Stable, machine-readable reason.
         * @enum {string}
         */
        code:
          | "unknown_source"
          | "verification_failed"
          | "payload_too_large"
          | "store_unavailable"
          | "overloaded"
          | "shutting_down"
          | "unauthorized"
          | "forbidden"
          | "not_found"
          | "invalid_request"
          | "unsupported_media_type"
          | "conflict"
          | "too_many_replays"
          | "too_many_endpoints"
          | "not_ready"
          | "internal";
        /** @description For people; may change. */
        message: string;
      };
    };
    IngestDuplicate: {
      /** @enum {string} */
      status: "duplicate";
      /** @description Id of the first copy. */
      id: string;
    };
    IngestAccepted: {
      /** @enum {string} */
      status: "accepted";
      /** @description The hook id (hk_…). */
      id: string;
    };
    Hook: {
      id: string;
      source: string;
      tenant?: string;
      /** Format: date-time */
      received_at: string;
      size: number;
      content_type?: string;
      sha256: string;
      dedup_key: string;
      idempotency_key: string;
      headers: {
        [key: string]: string;
      };
      sinks: {
        [key: string]: components["schemas"]["Delivery"];
      };
      /** @description Only with ?include=body. */
      body_base64?: string;
    };
    /** @description One delivery (a row of the delivery ledger). */
    Delivery: {
      delivery_id: string;
      /** @enum {string} */
      state: "pending" | "retrying" | "delivered" | "dead";
      attempts: number;
      /** Format: date-time */
      first_attempt_at?: string;
      /** Format: date-time */
      last_attempt_at?: string;
      /** Format: date-time */
      next_attempt_at?: string;
      /** Format: date-time */
      delivered_at?: string;
      /** Format: date-time */
      dead_at?: string;
      last_error?: string;
      /** @enum {string} */
      error_class?: "permanent" | "throttled" | "transient";
      last_status_code?: number;
      replay_id?: string;
      /** @description Set while the delivery is in the DLQ. */
      dlq_id?: string;
    };
    /** @description A dead delivery, inbound (a hook to a sink) or outbound (an event to an endpoint). */
    DlqEntry: {
      /** @description The delivery id (dl_…). */
      id: string;
      /** @enum {string} */
      direction: "inbound" | "outbound";
      /** @description The sink name (inbound) or endpoint id (outbound). */
      target: string;
      /** @description Inbound only: the hook delivered. */
      hook_id?: string;
      /** @description Outbound only: the event delivered. */
      event_id?: string;
      /** @description Inbound only: the hook's source. */
      source?: string;
      /** @description Outbound only: the event's type. */
      event_type?: string;
      tenant?: string;
      /** @description Inbound only: the target sink. */
      sink?: string;
      /** @description Outbound only: the target endpoint. */
      endpoint?: string;
      /** @enum {string} */
      error_class: "permanent" | "throttled" | "transient";
      reason: string;
      status_code?: number;
      attempts: number;
      /** Format: date-time */
      first_attempt_at?: string;
      /** Format: date-time */
      last_attempt_at?: string;
      /** Format: date-time */
      dead_at: string;
      replay_id?: string;
    };
    QuarantinedHook: {
      id: string;
      source: string;
      tenant?: string;
      /** Format: date-time */
      received_at: string;
      reason: string;
      size: number;
      headers: {
        [key: string]: string;
      };
      /** @description Only with ?include=body. */
      body_base64?: string;
    };
    Replay: {
      id: string;
      /** @enum {string} */
      state: "running" | "paused" | "cancelled" | "done";
      tenant?: string;
      filter: {
        source?: string;
        sink?: string;
        endpoint?: string;
        /** @enum {string} */
        error_class?: "permanent" | "throttled" | "transient";
        /** Format: date-time */
        since?: string;
        /** Format: date-time */
        until?: string;
        ids?: string[];
      };
      rate_per_s: number;
      /** @description Entries found so far. */
      matched: number;
      /** @description Entries sent back to their queues. */
      moved: number;
      /** @description Entries that could not be moved. */
      failed: number;
      /** @description Upper bound on matched, for progress. */
      total_estimate: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** Format: date-time */
      finished_at?: string;
    };
    ReplayInput: {
      /** @default {} */
      filter: {
        source?: string;
        sink?: string;
        /** @description An endpoint id (ep_…): its deliveries. */
        endpoint?: string;
        /** @enum {string} */
        error_class?: "permanent" | "throttled" | "transient";
        /** @description ISO 8601, or milliseconds since the epoch. */
        since?: string | number;
        /** @description ISO 8601, or milliseconds since the epoch. */
        until?: string | number;
        /** @description DLQ entry ids or hook ids (every dead delivery of that hook). */
        ids?: string[];
      };
      /** @default 1000 */
      rate_per_s: number;
    };
    ReplayPatch: {
      /** @enum {string} */
      state: "running" | "paused" | "cancelled";
    };
    SinkBreaker: {
      sink: string;
      /**
       * @description The sink's shared breaker, as Redis holds it.
       * @enum {string}
       */
      state: "closed" | "half_open" | "open";
      /** Format: date-time */
      open_until: string | null;
      /** Format: date-time */
      probe_until: string | null;
    };
    EndpointBreaker: {
      endpoint: string;
      tenant: string | null;
      url: string;
      /** @enum {string} */
      state: "closed" | "half_open" | "open";
      /** Format: date-time */
      open_until: string | null;
      /** Format: date-time */
      probe_until: string | null;
    };
    EndpointCreated: {
      /** @description ep_… */
      id: string;
      /** @description A password in the URL is shown as ***. */
      url: string;
      /** @description Event types (order.paid), prefix wildcards (order.*) or *. */
      event_types: string[];
      /** @description Receives only this tenant's events; unset: only events without a tenant. */
      tenant?: string;
      /** @description Extra request headers; credential-like values are shown as [redacted]. */
      headers: {
        [key: string]: string;
      };
      rate_limit_per_s?: number;
      /**
       * @description The delivery body. standard: {"type","timestamp","data":<payload>} (Standard Webhooks). raw: the payload alone.
       * @enum {string}
       */
      payload_format: "standard" | "raw";
      disabled: boolean;
      disabled_reason?: string;
      /** Format: date-time */
      disabled_at?: string;
      description?: string;
      /** @description Bumped by every change of url, event_types, headers, payload_format, secret or disabled. */
      version: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** Format: date-time */
      failing_since?: string;
      /** @description whsec_…; shown only in this answer. */
      secret: string;
      /** @description Subscriptions no event type in the catalog answers to (none without a catalog). */
      warnings: {
        /** @enum {string} */
        code: "undeclared_event_type";
        event_type: string;
        message: string;
      }[];
    };
    EndpointInput: {
      /**
       * Format: uri
       * @description http or https, and not internal.
       */
      url: string;
      event_types: string[];
      /** @description whsec_ + base64 of 24–64 bytes; generated if absent. */
      secret?: string;
      /** @description A tenant-bound token's own tenant is used (and no other is accepted). */
      tenant?: string;
      rate_limit_per_s?: number;
      /** @description Extra request headers: not hop-by-hop, host, content-*, webhook-* or x-switchyard-* ones. Replaces the whole set. */
      headers?: {
        [key: string]: string;
      };
      /** @enum {string} */
      payload_format?: "standard" | "raw";
      description?: string;
      disabled?: boolean;
    };
    Endpoint: {
      /** @description ep_… */
      id: string;
      /** @description A password in the URL is shown as ***. */
      url: string;
      /** @description Event types (order.paid), prefix wildcards (order.*) or *. */
      event_types: string[];
      /** @description Receives only this tenant's events; unset: only events without a tenant. */
      tenant?: string;
      /** @description Extra request headers; credential-like values are shown as [redacted]. */
      headers: {
        [key: string]: string;
      };
      rate_limit_per_s?: number;
      /**
       * @description The delivery body. standard: {"type","timestamp","data":<payload>} (Standard Webhooks). raw: the payload alone.
       * @enum {string}
       */
      payload_format: "standard" | "raw";
      disabled: boolean;
      disabled_reason?: string;
      /** Format: date-time */
      disabled_at?: string;
      description?: string;
      /** @description Bumped by every change of url, event_types, headers, payload_format, secret or disabled. */
      version: number;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /** Format: date-time */
      failing_since?: string;
    };
    EndpointPatch: {
      /**
       * Format: uri
       * @description http or https, and not internal.
       */
      url?: string;
      event_types?: string[];
      /** @description Extra request headers: not hop-by-hop, host, content-*, webhook-* or x-switchyard-* ones. Replaces the whole set. */
      headers?: {
        [key: string]: string;
      };
      /** @description null clears it. */
      rate_limit_per_s?: number | null;
      /** @enum {string} */
      payload_format?: "standard" | "raw";
      /** @description null clears it. */
      description?: string | null;
      disabled?: boolean;
      /** @description Fixed at creation: sending it is refused. */
      tenant?: unknown;
    };
    EndpointWithSecret: components["schemas"]["Endpoint"] & {
      /** @description whsec_…; shown only in this answer. */
      secret: string;
    };
    RotateSecretInput: {
      /** @description whsec_ + base64 of 24–64 bytes; generated if absent. */
      secret?: string;
    };
    PublishResult: {
      event_id: string;
      /** @description How many matching endpoints ended in each status. */
      counts: {
        created: number;
        duplicate: number;
        enqueue_failed: number;
        endpoint_error: number;
      };
      /** @description results lists only the first 100; GET /v1/events/{id}/deliveries has them all. */
      results_truncated: boolean;
      results: {
        endpoint_id: string;
        /** @enum {string} */
        status: "created" | "duplicate" | "enqueue_failed" | "endpoint_error";
        error?: string;
      }[];
    };
    EventInput: {
      /**
       * @description Dot-separated name, e.g. order.paid. Names starting switchyard. are reserved for the gateway's own operational events (400).
       * @example order.paid
       */
      type: string;
      /** @description Any JSON value. Endpoints receive it as data of {"type","timestamp","data"} (Standard Webhooks), or as is with payload_format raw. */
      payload: unknown;
      /** @description Your id: publishing the same id again is idempotent (per endpoint). */
      id?: string;
      /** @description Only with a token not bound to a tenant. */
      tenant?: string;
    };
    Event: {
      id: string;
      type: string;
      tenant?: string;
      /** Format: date-time */
      created_at: string;
      /** @description The payload as published. */
      payload?: unknown;
    };
    /** @description One delivery (a row of the delivery ledger). */
    EventDelivery: components["schemas"]["Delivery"] & {
      endpoint_id?: string;
    };
    DeliveryWithAttempts: {
      delivery_id: string;
      /** @enum {string} */
      state: "pending" | "retrying" | "delivered" | "dead";
      /** @description Newest last, at most 10. */
      attempts: components["schemas"]["Attempt"][];
      /** Format: date-time */
      first_attempt_at?: string;
      /** Format: date-time */
      last_attempt_at?: string;
      /** Format: date-time */
      next_attempt_at?: string;
      /** Format: date-time */
      delivered_at?: string;
      /** Format: date-time */
      dead_at?: string;
      last_error?: string;
      /** @enum {string} */
      error_class?: "permanent" | "throttled" | "transient";
      last_status_code?: number;
      replay_id?: string;
      /** @description Set while the delivery is in the DLQ. */
      dlq_id?: string;
      /** @description dl_… */
      id: string;
      /** @enum {string} */
      direction: "inbound" | "outbound";
      /** @description The sink's name (inbound) or the endpoint's id (outbound). */
      target: string;
      /** @description Inbound: the hook delivered. */
      hook_id?: string;
      /** @description Inbound: the hook's source. */
      source?: string;
      /** @description Outbound: the event delivered. */
      event_id?: string;
      /** @description Outbound: the event's type. */
      event_type?: string;
      /** Format: date-time */
      created_at: string;
      tenant?: string;
      /** @description Attempts made (the history keeps the last 10). */
      attempt_count: number;
    };
    Attempt: {
      /**
       * Format: date-time
       * @description When the attempt was sent.
       */
      at: string;
      duration_ms: number;
      status_code?: number;
      /**
       * @description A failed attempt's.
       * @enum {string}
       */
      error_class?: "permanent" | "throttled" | "transient";
      /** @description Why it failed (at most 512 characters). */
      reason?: string;
      /** @description The first ≤ 1 KiB of the response body. */
      response_excerpt?: string;
      /** @description The Standard Webhooks headers the request carried (signed requests). */
      signature_headers?: {
        [key: string]: string;
      };
    };
    DeliveryListed: {
      delivery_id: string;
      /** @enum {string} */
      state: "pending" | "retrying" | "delivered" | "dead";
      attempts: number;
      /** Format: date-time */
      first_attempt_at?: string;
      /** Format: date-time */
      last_attempt_at?: string;
      /** Format: date-time */
      next_attempt_at?: string;
      /** Format: date-time */
      delivered_at?: string;
      /** Format: date-time */
      dead_at?: string;
      last_error?: string;
      /** @enum {string} */
      error_class?: "permanent" | "throttled" | "transient";
      last_status_code?: number;
      replay_id?: string;
      /** @description Set while the delivery is in the DLQ. */
      dlq_id?: string;
      /** @description dl_… */
      id: string;
      /** @enum {string} */
      direction: "inbound" | "outbound";
      /** @description The sink's name (inbound) or the endpoint's id (outbound). */
      target: string;
      /** @description Inbound: the hook delivered. */
      hook_id?: string;
      /** @description Inbound: the hook's source. */
      source?: string;
      /** @description Outbound: the event delivered. */
      event_id?: string;
      /** @description Outbound: the event's type. */
      event_type?: string;
      /** Format: date-time */
      created_at: string;
    };
    EndpointStats: {
      endpoint_id: string;
      last_hour: components["schemas"]["WindowStats"];
      last_day: components["schemas"]["WindowStats"];
      /** @description The newest attempt's status code, or its error class when nothing answered. */
      last_status: number | string | null;
      /** Format: date-time */
      last_attempt_at: string | null;
      breaker: {
        /** @enum {string} */
        state: "closed" | "half_open" | "open";
        /** Format: date-time */
        open_until: string | null;
      };
      disabled: boolean;
      disabled_reason: string | null;
      /** Format: date-time */
      failing_since: string | null;
    };
    WindowStats: {
      attempts: number;
      successes: number;
      /** @description successes / attempts; null without attempts. */
      success_rate: number | null;
      /** @description Median attempt duration (histogram bin bound). */
      p50_ms: number | null;
      /** @description 99th percentile attempt duration (bin bound). */
      p99_ms: number | null;
    };
    EventType: {
      name: string;
      description?: string;
      schema?: {
        [key: string]: unknown;
      };
      example?: unknown;
      /**
       * @description builtin: an operational event type (switchyard.*), documented by Switchyard itself.
       * @enum {string}
       */
      origin: "config" | "api" | "builtin";
      /**
       * Format: date-time
       * @description When it was declared by API.
       */
      created_at?: string;
    };
    /** @description An exact event type (no wildcard); the schema is kept, not enforced. */
    EventTypeInput: {
      name: string;
      description?: string;
      schema?: {
        [key: string]: unknown;
      };
      example?: unknown;
    };
    PortalLink: {
      /** @description `<public_url>/portal#<token>`: the token only in the fragment; usable once. */
      url: string;
      /** Format: date-time */
      expires_at: string;
      tenant: string;
      read_only: boolean;
    };
    PortalSessionInput: {
      tenant: string;
      /** @description How long the link, and the session it opens, last (default 3600). */
      ttl_s?: number;
      /** @description A session that changes nothing (403); default false. */
      read_only?: boolean;
    };
    TestEventInput: {
      /** @description An event type (no pattern); switchyard.test unless named. */
      type?: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

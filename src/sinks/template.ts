// Routing keys, Kafka keys and the like are templates over a hook's identity: `{source}`, `{tenant}`, `{id}`.
import type { HookRecord } from "../domain/hook.ts";

const PLACEHOLDER = /\{(source|tenant|id)\}/g;

/** Fill `template` from `hook`; a hook without a tenant renders `{tenant}` as `-`. */
export function renderTemplate(template: string, hook: Pick<HookRecord, "source" | "tenant" | "id">): string {
  return template.replace(PLACEHOLDER, (_m, field: "source" | "tenant" | "id") =>
    field === "tenant" ? (hook.tenant ?? "-") : hook[field],
  );
}

// Which parts of Switchyard a process runs. `npm start` runs all; the Procfile splits web and worker.

export type Role = "api" | "dispatch" | "recovery";
export const ALL_ROLES: readonly Role[] = ["api", "dispatch", "recovery"];

/** Parse `SWITCHYARD_ROLES` (comma-separated); unknown names are an error, not a silent no-op. */
export function parseRoles(value: string | undefined, fallback: readonly Role[]): Role[] {
  if (value === undefined || value.trim() === "") return [...fallback];
  const roles = value.split(",").map((r) => r.trim());
  for (const role of roles) {
    if (!(ALL_ROLES as readonly string[]).includes(role)) {
      throw new Error(`SWITCHYARD_ROLES: unknown role "${role}" (known: ${ALL_ROLES.join(", ")})`);
    }
  }
  return roles as Role[];
}

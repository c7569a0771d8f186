// A platform (a Procfile host, a container scheduler) tells a process which port to bind, which Redis
// to use and how much to log through PORT, REDIS_URL and LOG_LEVEL. A user's own config should not
// have to repeat `${PORT}` for that to work, so a key the file leaves out is taken from the
// environment before validation: the value then passes the same checks, and a bad one is reported
// under its key path like a bad value in the file. A value written in the file still wins.

type Env = Readonly<Record<string, string | undefined>>;

export interface EnvDefault {
  readonly variable: string;
  readonly path: readonly [string, ...string[]];
}

/** Which config key each platform variable feeds when the file omits it. */
export const ENV_DEFAULTS: readonly EnvDefault[] = [
  { variable: "PORT", path: ["http", "port"] },
  { variable: "REDIS_URL", path: ["redis", "url"] },
  { variable: "LOG_LEVEL", path: ["log_level"] },
];

type Doc = Record<string, unknown>;

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Set `path` to `value` in a copy of `doc`, unless the file has it or a section on the way is not a map. */
function withDefault(doc: Doc, path: readonly string[], value: string): Doc | undefined {
  const [key, ...rest] = path;
  if (key === undefined) return undefined;
  const current = doc[key];
  if (rest.length === 0) return current === undefined ? { ...doc, [key]: value } : undefined;
  const section = current === undefined ? {} : current;
  // A section that is present but not a map is the schema's to reject, under its own path.
  if (!isDoc(section)) return undefined;
  const inner = withDefault(section, rest, value);
  return inner === undefined ? undefined : { ...doc, [key]: inner };
}

/**
 * The parsed file with the omitted platform keys filled from `env`, and which ones were, so errors
 * can say where a value came from. An empty variable counts as unset, as in `${VAR:-default}`.
 */
export function applyEnvDefaults(doc: unknown, env: Env): { doc: unknown; applied: EnvDefault[] } {
  if (!isDoc(doc)) return { doc, applied: [] };
  let out: Doc = doc;
  const applied: EnvDefault[] = [];
  for (const entry of ENV_DEFAULTS) {
    const value = env[entry.variable];
    if (value === undefined || value === "") continue;
    const next = withDefault(out, entry.path, value);
    if (next === undefined) continue;
    out = next;
    applied.push(entry);
  }
  return { doc: out, applied };
}

/** The variable an error at `path` should be blamed on, if that value came from the environment. */
export function envSourceOf(
  path: readonly PropertyKey[],
  applied: readonly EnvDefault[],
): string | undefined {
  return applied.find((entry) => entry.path.every((segment, i) => path[i] === segment))?.variable;
}

// `${VAR}` and `${VAR:-default}` in the YAML text, resolved from the environment before parsing,
// so one file serves every deploy. An unset variable without a default stops boot.

export class InterpolationError extends Error {
  constructor(
    readonly variable: string,
    readonly line: number,
  ) {
    super(`environment variable ${variable} is not set (line ${line}) and has no default`);
  }
}

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replace every reference in `text`; `$${` escapes a literal `${`. */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>): string {
  const lines = text.split("\n");
  return lines
    .map((line, i) => {
      if (line.trimStart().startsWith("#")) return line;
      return line
        .split("$${")
        .map((part) =>
          part.replace(PATTERN, (_m, name: string, fallback: string | undefined) => {
            const value = env[name];
            if (value !== undefined && value !== "") return value;
            if (fallback !== undefined) return fallback;
            throw new InterpolationError(name, i + 1);
          }),
        )
        .join("${");
    })
    .join("\n");
}

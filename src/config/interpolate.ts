// `${VAR}` and `${VAR:-default}` in the YAML, resolved from the environment, so one file serves every
// deploy. Values are inserted as scalars, never as YAML text: a secret holding `#`, a newline, `: `
// or a quote is that string, not a truncated value or injected keys. Each reference is first replaced
// by an inert placeholder, the text is parsed, and the placeholders in the parsed scalars are then
// resolved. A plain (unquoted) scalar that is one reference takes the type YAML would give the value
// written there (`port: ${PORT}` is a number, `${FLAG}` a boolean); anything else is a string. An unset
// variable without a default stops boot; references in comments are ignored.
import { randomBytes } from "node:crypto";
import { type Document, Scalar, parseDocument, visit } from "yaml";

export class InterpolationError extends Error {
  constructor(
    readonly variable: string,
    readonly line: number,
  ) {
    super(`environment variable ${variable} is not set (line ${line}) and has no default`);
  }
}

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

interface Reference {
  readonly name: string;
  readonly fallback: string | undefined;
  readonly line: number;
}

/** YAML 1.2 core-schema plain scalars that are not strings. */
const NUMBER = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BOOLEAN = /^(true|True|TRUE|false|False|FALSE)$/;
const NULL = /^(|~|null|Null|NULL)$/;

/** What YAML makes of `value` written as a plain scalar, if not a string. */
function typedPlain(value: string): unknown {
  if (NUMBER.test(value)) return Number(value);
  if (BOOLEAN.test(value)) return value.toLowerCase() === "true";
  if (NULL.test(value)) return null;
  return value;
}

/** Parse `text` with every reference resolved from `env` into the scalar holding it. */
export function parseInterpolated(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Document.Parsed {
  // Letters, digits and underscores only: inert in any YAML context (plain, quoted, flow, block).
  const mark = `SWYREF${randomBytes(6).toString("hex")}`;
  const refs: Reference[] = [];
  const held = text
    .split("\n")
    .map((line, i) =>
      line
        .split("$${")
        .map((part) =>
          part.replace(PATTERN, (_m, name: string, fallback: string | undefined) => {
            refs.push({ name, fallback, line: i + 1 });
            return `${mark}_${refs.length - 1}_`;
          }),
        )
        .join(`${mark}_lit_`),
    )
    .join("\n");
  const doc = parseDocument(held);
  if (doc.errors.length > 0) return doc;

  const one = new RegExp(`^${mark}_(\\d+)_$`);
  const any = new RegExp(`${mark}_(\\d+|lit)_`, "g");
  const resolve = (index: string): string => {
    if (index === "lit") return "${";
    const ref = refs[Number(index)] as Reference;
    const value = env[ref.name];
    if (value !== undefined && value !== "") return value;
    if (ref.fallback !== undefined) return ref.fallback;
    throw new InterpolationError(ref.name, ref.line);
  };
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== "string" || !node.value.includes(mark)) return;
      const whole = one.exec(node.value);
      if (whole && node.type === Scalar.PLAIN) {
        node.value = typedPlain(resolve(whole[1] as string));
        return;
      }
      node.value = node.value.replace(any, (_m, index: string) => resolve(index));
    },
  });
  return doc;
}

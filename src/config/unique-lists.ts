// Lists in the config that are sets. A repeat is always a mistake and sometimes a harmful one: a sink
// listed twice in a source gave each hook two live deliveries for one row, whose record then never
// expired. Repeats are refused at boot, naming the entry; secrets and tokens by position only, so the
// message never prints a credential. A sink type checks its own lists (a Kafka broker) in its schema.
import type { z } from "zod";

interface Checked {
  readonly outbound: { readonly event_types: readonly { readonly name: string }[] };
  readonly redis: { readonly cluster?: { readonly nodes: readonly string[] } | undefined };
  readonly admin: { readonly tokens: readonly (string | { readonly token: string })[] };
  readonly sources: Readonly<
    Record<
      string,
      {
        readonly sinks: readonly string[];
        readonly verify: { readonly type: string; readonly secrets?: readonly string[] };
      }
    >
  >;
}

type Path = readonly (string | number)[];

/** Report each entry of `list` equal to an earlier one; empty entries (an unset `${VAR:-}`) are skipped. */
export function refuseRepeats(
  ctx: z.RefinementCtx,
  path: Path,
  list: readonly string[] | undefined,
  message: (value: string, first: number) => string,
): void {
  const first = new Map<string, number>();
  list?.forEach((value, i) => {
    if (value === "") return;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, i);
    else ctx.addIssue({ code: "custom", path: [...path, i], message: message(value, earlier) });
  });
}

/** The message for a repeated entry that may be shown. */
export const named = (value: string): string => `"${value}" is listed twice`;

/** Add an issue for every repeated entry of the config's set-like lists. */
export function refuseDuplicateEntries(cfg: Checked, ctx: z.RefinementCtx): void {
  refuseRepeats(ctx, ["redis", "cluster", "nodes"], cfg.redis.cluster?.nodes, named);
  refuseRepeats(
    ctx,
    ["outbound", "event_types"],
    cfg.outbound.event_types.map((t) => t.name),
    (value, first) => `event type "${value}" is declared twice (first at [${first}])`,
  );
  refuseRepeats(
    ctx,
    ["admin", "tokens"],
    cfg.admin.tokens.map((t) => (typeof t === "string" ? t : t.token)),
    (_, first) => `the same token as [${first}]`,
  );
  for (const [sourceName, src] of Object.entries(cfg.sources)) {
    refuseRepeats(ctx, ["sources", sourceName, "sinks"], src.sinks, named);
    refuseRepeats(
      ctx,
      ["sources", sourceName, "verify", "secrets"],
      src.verify.secrets,
      (_, first) => `the same secret as [${first}]`,
    );
  }
}

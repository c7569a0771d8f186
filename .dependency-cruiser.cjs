// The architecture's dependency rules, checked by `npm run deps` (part of `npm test`): arrows run from
// the entry points (workers, api, runtime, cli) to the use cases (ingest, delivery, fanout, recovery)
// to the pure domain; adapters (store, queue, sinks) serve the use cases and never call back up into
// them or into the runtime; nothing imports the entry points; no cycles. Sink types and verification
// presets are plugins reached only through their registries.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "A cycle makes two modules one concept: split or invert it.",
      from: { path: "^src" },
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment:
        "The domain (ids, states, error classes, retry policy, signing) does no I/O and imports nothing of ours but itself and config types.",
      from: { path: "^src/domain" },
      to: { path: "^src/(?!domain|config/schema)" },
    },
    {
      name: "domain-no-io-packages",
      severity: "error",
      from: { path: "^src/domain" },
      to: { dependencyTypes: ["npm"], path: "ioredis|bullmq|undici|amqplib|kafkajs|hono|pino|prom-client" },
    },
    {
      name: "nothing-imports-entry-points",
      severity: "error",
      comment: "workers/ and the CLI are leaves: nothing in src/ may depend on them.",
      from: { path: "^src/(?!cli/)" },
      to: { path: "^(workers|src/cli)/" },
    },
    {
      name: "only-entry-points-import-runtime",
      severity: "error",
      comment:
        "The runtime wires everything together; a use case or adapter that imports it is a back-edge (e.g. recovery → runtime).",
      from: {
        path: "^src/(domain|ingest|delivery|fanout|recovery|operational|store|queue|sinks|observability|config)/",
      },
      to: { path: "^src/runtime/" },
    },
    {
      name: "only-runtime-imports-api",
      severity: "error",
      comment: "Routes are the HTTP edge; use cases and adapters never know about them.",
      from: {
        path: "^src/(domain|ingest|delivery|fanout|recovery|operational|store|queue|sinks|observability|config)/",
      },
      to: { path: "^src/api/" },
    },
    {
      name: "adapters-do-not-call-use-cases",
      severity: "error",
      comment:
        "Adapters (store, queue, sinks) implement what the use cases need; they never import a use case.",
      from: { path: "^src/(store|queue|sinks)/" },
      to: { path: "^src/(ingest|delivery|fanout|recovery|operational)/" },
    },
    {
      name: "bullmq-internals-in-adapter",
      severity: "error",
      comment:
        "BullMQ's internals (its scripts, classes and storage layout beyond the package's API) are known only to the adapter, src/queue/bullmq/ (the job layout, its Lua include, the version gate): a BullMQ upgrade is checked there.",
      from: { path: "^(src|workers)/", pathNot: "^src/queue/bullmq/" },
      to: { path: "node_modules/bullmq/", pathNot: "node_modules/bullmq/dist/(cjs|esm)/index\\.js$" },
    },
    {
      name: "delivery-workers-only-in-the-pool",
      severity: "error",
      comment:
        "Every delivery queue of both directions runs in the one worker pool (delivery/worker-pool.ts), with one close path and one stall policy; the rest of delivery reaches BullMQ's errors only through src/queue/bullmq/control.ts.",
      from: { path: "^src/delivery/", pathNot: "^src/delivery/worker-pool\\.ts$" },
      to: { dependencyTypes: ["npm"], path: "(^|/)node_modules/bullmq/" },
    },
    {
      name: "sink-plugins-only-through-the-registry",
      severity: "error",
      comment:
        "A sink type is one folder under src/sinks/ (schema, factory, traits): outside it only src/sinks/registry.ts imports it, and everything else asks the registry. Shared sink code (the HTTP send, the queue message) lives in files directly under src/sinks/.",
      from: { path: "^(src|workers)/", pathNot: "^src/sinks/(registry\\.ts$|[^/]+/)" },
      to: { path: "^src/sinks/[^/]+/" },
    },
    {
      name: "sink-plugins-apart",
      severity: "error",
      comment: "One sink type's folder never reaches into another's.",
      from: { path: "^src/sinks/([^/]+)/" },
      to: { path: "^src/sinks/[^/]+/", pathNot: "^src/sinks/$1/" },
    },
    {
      name: "verify-presets-only-through-the-registry",
      severity: "error",
      comment:
        "A verification preset is one module under src/ingest/verify/presets/ (schema, verifier, dedup presets, signature coverage): only the preset registry imports it, and no preset imports another.",
      from: { path: "^(src|workers)/", pathNot: "^src/ingest/verify/registry\\.ts$" },
      to: { path: "^src/ingest/verify/presets/" },
    },
    {
      name: "plugins-own-their-schema",
      severity: "error",
      comment:
        "Sink types and verification presets declare their own config schema; they never import the assembled config schema, which is built from them.",
      from: { path: "^src/(sinks/|ingest/verify/(presets/|preset\\.ts$|registry\\.ts$))" },
      to: { path: "^src/config/(schema|sink-schema|source-schema|load|warnings|dedup-agreement)\\.ts$" },
    },
    {
      name: "config-reads-plugins-through-registries",
      severity: "error",
      comment:
        "The config schema, its refusals and its warnings derive what they need of a sink type or a verification preset from the two registries, never from a plugin by name.",
      from: { path: "^src/config/" },
      to: {
        path: "^src/(sinks|ingest)/",
        pathNot: "^src/(sinks/registry|ingest/verify/registry)\\.ts$",
      },
    },
    {
      name: "routes-do-not-import-routes",
      severity: "error",
      comment: "Shared helpers of routes live in src/api/, not in a sibling route.",
      from: { path: "^src/api/routes/([^/]+)\\.ts$" },
      to: { path: "^src/api/routes/", pathNot: "^src/api/routes/$1\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};

// Procfile `web`: the HTTP API only (ingest, admin, metrics). Scale it horizontally.
import { boot } from "../src/runtime/boot.ts";

await boot({ defaultRoles: ["api"], development: false });

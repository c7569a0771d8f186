// Procfile `worker`: every sink's delivery workers and the recovery scheduler. Scale it horizontally.
import { boot } from "../src/runtime/boot.ts";

await boot({ defaultRoles: ["dispatch", "recovery"], development: false });

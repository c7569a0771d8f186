// `npm start`: API, dispatch workers and recovery in one process, on the bundled config by default.
import { boot } from "../src/runtime/boot.ts";

await boot({ defaultRoles: ["api", "dispatch", "recovery"], devRedis: true });

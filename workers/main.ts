// `npm start`: API, dispatch workers and recovery in one process, on the bundled config by default.
// Run from its source (npm start, through tsx) it is a development process (see development.ts);
// compiled (dist/workers/main.js, the Docker image's default) it is a production one.
import { boot, runningFromSource } from "../src/runtime/boot.ts";

await boot({
  defaultRoles: ["api", "dispatch", "recovery"],
  development: runningFromSource(import.meta.url),
});

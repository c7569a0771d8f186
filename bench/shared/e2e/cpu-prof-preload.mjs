// A CPU profile of any node process, from when the file CPU_PROF_DIR/start appears until the process exits
// (so start-up is left out), written then: `NODE_OPTIONS="--import ./bench/shared/e2e/cpu-prof-preload.mjs"` with
// CPU_PROF_DIR set. Node 20 refuses --cpu-prof in NODE_OPTIONS, and the processes bench:e2e profiles are
// started by a Procfile command (npx, sh, tsx) it does not control, so a signal to them all would kill
// the shell in between.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import process from "node:process";
import { clearInterval, setInterval } from "node:timers";

const dir = process.env.CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 1000 });
  let started = false;
  const poll = setInterval(() => {
    if (!existsSync(join(dir, "..", "start"))) return;
    session.post("Profiler.start");
    started = true;
    clearInterval(poll);
  }, 50);
  poll.unref();
  process.on("exit", () => {
    if (!started) return;
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post("Profiler.stop", (err, result) => {
      if (err || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}

// The baseline worker (baseline-worker.ts) in a process of its own, like the Switchyard process it is
// measured against: `baseline-worker-process.ts <options json> [--on-start]`. With --on-start it loads
// everything, serves the start signal (control.ts: prints "ready <port>") and starts the worker on POST
// /start; without, it starts at once (bench:e2e's Procfile-like `worker`). SIGTERM closes it.
import { type BaselineWorker, type BaselineWorkerOptions, startBaselineWorker } from "./baseline-worker.ts";
import { serveControl } from "./control.ts";

const [json = "{}", flag] = process.argv.slice(2);
const options = JSON.parse(json) as BaselineWorkerOptions;
let worker: BaselineWorker | undefined;
if (flag === "--on-start") {
  serveControl(
    async () => void (worker = await startBaselineWorker(options)),
    async () => worker?.close(),
  );
} else {
  worker = await startBaselineWorker(options);
  process.on("SIGTERM", () => void worker?.close().then(() => process.exit(0)));
}

// `node --import ./test/support/import-recorder.mjs`: records every module URL the process resolves
// from then on in `globalThis.resolvedModules` (see import-recorder-hooks.mjs).
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const { port1, port2 } = new MessageChannel();
globalThis.resolvedModules = [];
port1.on("message", (url) => globalThis.resolvedModules.push(url));
port1.unref();
register("./import-recorder-hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });

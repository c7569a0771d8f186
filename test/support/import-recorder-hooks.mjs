// Module hooks (run on Node's loader thread) that report every URL a process resolves: tests use them
// to see which packages a code path actually loads. Registered by import-recorder.mjs.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}

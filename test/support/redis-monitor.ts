// MONITOR for the tests that count what a code path sends to Redis, on a socket of its own. ioredis's
// monitor() enters its monitoring mode a microtask after MONITOR's +OK: a monitored command that
// arrives in the same read as the +OK (likely on the shared Redis, busy with other test files) meets an
// empty command queue and throws "Command queue state error" from the socket's data handler, an
// uncaught exception that fails whichever test is running.
import { EventEmitter } from "node:events";
import { connect } from "node:net";

/** Emits "monitor" (time, args) for every command Redis runs, as ioredis's monitor does. */
export interface RedisMonitor {
  on(event: "monitor", listener: (time: string, args: string[]) => void): this;
  disconnect(): void;
}

/** One MONITOR line's arguments: `<time> [<db> <client>] "arg" "arg" …`, escapes decoded. */
export function monitorArgs(line: string): string[] {
  const args: string[] = [];
  let i = line.indexOf('"');
  while (i >= 0 && i < line.length) {
    let arg = "";
    i++; // the opening quote
    while (i < line.length && line[i] !== '"') {
      const c = line[i]!;
      if (c !== "\\") {
        arg += c;
        i++;
        continue;
      }
      const next = line[i + 1];
      if (next === "x") {
        arg += String.fromCharCode(Number.parseInt(line.slice(i + 2, i + 4), 16));
        i += 4;
        continue;
      }
      arg += { n: "\n", r: "\r", t: "\t", a: "\x07", b: "\b" }[next ?? ""] ?? next ?? "";
      i += 2;
    }
    args.push(arg);
    i = line.indexOf('"', i + 1);
  }
  return args;
}

/** Start monitoring the Redis at `url` (redis://host:port); resolves once MONITOR has answered. */
export function monitorRedis(url: string): Promise<RedisMonitor> {
  const { hostname, port, password } = new URL(url);
  const socket = connect(Number(port || 6379), hostname || "127.0.0.1");
  const emitter = new EventEmitter();
  const monitor = Object.assign(emitter, { disconnect: () => socket.destroy() }) as RedisMonitor &
    EventEmitter;
  return new Promise((resolve, reject) => {
    let buffered = "";
    let oks = password ? 2 : 1; // AUTH's, then MONITOR's
    let answered = false;
    socket.setEncoding("latin1");
    socket.once("error", reject);
    socket.on("connect", () => {
      if (password) socket.write(`AUTH ${decodeURIComponent(password)}\r\n`);
      socket.write("MONITOR\r\n");
    });
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      let end = buffered.indexOf("\r\n");
      while (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf("\r\n");
        if (line.startsWith("-")) return reject(new Error(`MONITOR: ${line.slice(1)}`));
        if (line === "+OK" && !answered) {
          answered = --oks === 0;
          if (answered) resolve(monitor);
        } else if (line.startsWith("+") && answered) {
          emitter.emit("monitor", line.slice(1, line.indexOf(" ")), monitorArgs(line));
        }
      }
    });
  });
}

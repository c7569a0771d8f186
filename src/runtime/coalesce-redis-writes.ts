// ioredis writes each command to its socket as it is sent: one system call per command. A worker sends
// its commands in bursts (a group-committed outcome resolves a whole tick's attempts at once, and each
// then completes its BullMQ job), so the socket is corked from a tick's first command to the end of that
// tick: the burst leaves in one writev. Commands keep their order and their replies, nothing waits for a
// timer, and a command sent alone goes out at the end of its tick, before the process waits for any I/O
// (its write is a few µs later than before, never a loop turn). This is not ioredis's
// auto-pipelining (which queues commands in a pipeline of its own and is known to misbehave with
// BullMQ): ioredis sends exactly what it sent before; only the system calls are fewer. On a cluster the
// node connections are corked as ioredis opens them; BullMQ's blocking duplicates are left as they are.
import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "../store/redis-client.ts";

interface Corkable {
  cork(): void;
  uncork(): void;
}

function corkable(stream: unknown): stream is Corkable {
  const s = stream as Partial<Corkable> | null | undefined;
  return typeof s?.cork === "function" && typeof s.uncork === "function";
}

/** Make each tick's commands on `client` one socket write: on a cluster, each node connection's. */
export function coalesceWrites(client: RedisClient): void {
  if (client instanceof Cluster) client.on("+node", (node: Redis) => coalesceTickWrites(node));
  else coalesceTickWrites(client);
}

/** Make each tick's commands on one connection one socket write. */
export function coalesceTickWrites(client: Redis): void {
  let corked: Corkable | undefined;
  const uncork = (): void => {
    const stream = corked;
    corked = undefined;
    stream?.uncork();
  };
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    const socket: unknown = stream ?? (client as unknown as { stream?: unknown }).stream;
    if (corked === undefined && client.status === "ready" && corkable(socket)) {
      socket.cork();
      corked = socket;
      process.nextTick(uncork);
    }
    return send(command, stream);
  };
}

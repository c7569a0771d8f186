// The shared receiver (receiver.ts) in a process of its own, so it never shares an event loop with a
// contender: `receiver-process.ts [options json]`. Prints "ready <port>" on stdout once it listens (and,
// with amqp, consumes); SIGTERM stops it.
import { type ReceiverOptions, listenReceiver } from "./receiver.ts";

const receiver = await listenReceiver(JSON.parse(process.argv[2] ?? "{}") as ReceiverOptions);
process.stdout.write(`ready ${receiver.port}\n`);
process.on("SIGTERM", () => void receiver.stop().then(() => process.exit(0)));

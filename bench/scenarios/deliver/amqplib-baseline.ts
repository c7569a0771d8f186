// The AMQP baseline of bench:deliver, in its own process like the Switchyard dispatch process and started
// only on POST /start (control.ts): a bare confirm-channel loop of N persistent+mandatory publishes,
// `inFlight` unconfirmed at a time, done when every confirm is back. Connecting counts, as the sink
// connects lazily too. `amqplib-baseline.ts <json>`.
import amqp from "amqplib";
import { serveControl } from "../../shared/control.ts";

export interface AmqplibBaseline {
  readonly url: string;
  readonly exchange: string;
  readonly routingKey: string;
  readonly n: number;
  readonly inFlight: number;
  /** The message, base64, and the headers Switchyard's sink would attach to it. */
  readonly contentBase64: string;
  readonly headers: Record<string, string>;
}

function amqplib(opts: AmqplibBaseline): void {
  const content = Buffer.from(opts.contentBase64, "base64");
  let model: amqp.ChannelModel | undefined;
  serveControl(
    async () => {
      const m = await amqp.connect(opts.url);
      model = m;
      const channel = await m.createConfirmChannel();
      let sent = 0;
      let confirmed = 0;
      const done = new Promise<void>((resolve, reject) => {
        const pump = (): void => {
          while (sent - confirmed < opts.inFlight && sent < opts.n) {
            const i = sent++;
            channel.publish(
              opts.exchange,
              opts.routingKey,
              content,
              {
                persistent: true,
                mandatory: true,
                contentType: "application/json",
                messageId: `base_${i}`,
                headers: opts.headers,
              },
              (err: unknown) => {
                if (err) return reject(err instanceof Error ? err : new Error(String(err)));
                confirmed++;
                if (confirmed === opts.n) resolve();
                else pump();
              },
            );
          }
        };
        pump();
      });
      done.catch((err: Error) => process.stderr.write(`baseline publish failed: ${err.message}\n`));
    },
    async () => {
      await model?.close().catch(() => undefined);
    },
  );
}

amqplib(JSON.parse(process.argv[2] ?? "{}") as AmqplibBaseline);

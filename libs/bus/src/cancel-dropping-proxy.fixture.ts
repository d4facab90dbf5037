import { connect, createServer, type Socket } from 'node:net';

/** AMQP 0-9-1: a method frame is type 1; basic.cancel is class 60, method 30. */
const METHOD_FRAME = 1;
const BASIC_CLASS = 60;
const CANCEL_METHOD = 30;
const FRAME_HEADER_BYTES = 7;
const FRAME_END_BYTES = 1;

/**
 * A TCP relay to RabbitMQ that loses every basic.cancel the broker sends, so that a test can show what a consumer
 * does when the broker stops serving it without saying so (as RabbitMQ can, for a quorum queue deleted while its
 * leader moves). Everything else passes through unchanged.
 */
export async function startCancelDroppingProxy(target: { host: string; port: number }): Promise<{
  port: number;
  droppedCancels: () => number;
  close: () => Promise<void>;
}> {
  const open = new Set<Socket>();
  let dropped = 0;

  /** Splits the broker's byte stream into frames and forwards all but the cancels. */
  function frameFilter(client: Socket): (chunk: Buffer) => void {
    let pending = Buffer.alloc(0);
    return (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= FRAME_HEADER_BYTES) {
        const size = pending.readUInt32BE(3);
        const frameBytes = FRAME_HEADER_BYTES + size + FRAME_END_BYTES;
        if (pending.length < frameBytes) break;
        const frame = pending.subarray(0, frameBytes);
        pending = pending.subarray(frameBytes);
        const isCancel =
          frame[0] === METHOD_FRAME &&
          size >= 4 &&
          frame.readUInt16BE(FRAME_HEADER_BYTES) === BASIC_CLASS &&
          frame.readUInt16BE(FRAME_HEADER_BYTES + 2) === CANCEL_METHOD;
        if (isCancel) dropped += 1;
        else client.write(frame);
      }
    };
  }

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pair = [client, upstream];
    // Either side ending or failing ends both, as a dropped connection would.
    const endPair = () => pair.forEach((socket) => socket.destroy());
    pair.forEach((socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket) && endPair());
      socket.on('error', endPair);
    });
    client.pipe(upstream); // the client's protocol header and frames go through as they are
    upstream.on('data', frameFilter(client));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no port');
  return {
    port: address.port,
    droppedCancels: () => dropped,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

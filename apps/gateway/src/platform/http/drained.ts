import type { Writable } from 'node:stream';

/**
 * Resolves once the stream takes more, or is gone (then the caller stops): how a streamed answer keeps memory
 * flat. The stream is the answer itself, or what feeds it (a gzip stream piped into it).
 */
export const drained = (stream: Writable) =>
  new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });

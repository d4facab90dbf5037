import type { Response } from 'express';

/** Resolves once the socket takes more, or is gone (then the caller stops): how a streamed answer keeps memory flat. */
export const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

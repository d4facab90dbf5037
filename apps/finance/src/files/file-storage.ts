/** Where a file's bytes are: chosen by FILE_STORAGE (config.ts); the files table holds what is known of each. */
export interface FileStorage {
  readonly kind: 'postgres' | 's3';
  /** Stores the bytes under the id as they come, reading the next only once the last is stored. */
  write(id: string, bytes: AsyncIterable<Buffer>): Promise<void>;
  /** The stored bytes from offset, length of them, in chunks of at most FILE_LIMITS.chunkBytes. */
  read(id: string, offset: number, length: number): AsyncIterable<Buffer>;
  /** Deletes whatever is stored under the ids, whole or partial; nothing stored is no error. */
  remove(ids: string[]): Promise<void>;
}

/** The bytes regrouped into chunks of exactly `size` (the last one shorter): a stored chunk's place follows from its number. */
export async function* fixedChunks(bytes: AsyncIterable<Buffer>, size: number): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of bytes) {
    let rest = piece;
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

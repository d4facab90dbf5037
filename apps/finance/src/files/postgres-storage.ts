import { QueryTypes, type Sequelize } from 'sequelize';
import { FILE_LIMITS } from '@libs/contracts';
import { fixedChunks, type FileStorage } from './file-storage';

const CHUNK = FILE_LIMITS.chunkBytes;

/**
 * The embedded storage: file_chunks rows in finance's own database, each chunk its own statement (no transaction
 * held open for the length of an upload; a refused upload's chunks go with its files row, ON DELETE CASCADE).
 */
export class PostgresStorage implements FileStorage {
  readonly kind = 'postgres';

  constructor(private readonly sequelize: Sequelize) {}

  async write(id: string, bytes: AsyncIterable<Buffer>): Promise<void> {
    let seq = 0;
    for await (const chunk of fixedChunks(bytes, CHUNK)) {
      await this.sequelize.query('INSERT INTO file_chunks (file_id, seq, data) VALUES ($1, $2, $3)', { bind: [id, seq, chunk] });
      seq += 1;
    }
  }

  async *read(id: string, offset: number, length: number): AsyncIterable<Buffer> {
    const end = offset + length;
    // One chunk a query: memory holds one chunk, however large the file.
    for (let seq = Math.floor(offset / CHUNK); seq * CHUNK < end; seq += 1) {
      const [row] = await this.sequelize.query<{ data: Buffer }>('SELECT data FROM file_chunks WHERE file_id = $1 AND seq = $2', {
        bind: [id, seq],
        type: QueryTypes.SELECT,
      });
      if (!row) throw new Error(`file ${id} lacks chunk ${seq}`);
      const start = seq * CHUNK;
      yield row.data.subarray(Math.max(0, offset - start), Math.min(row.data.length, end - start));
    }
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.sequelize.query('DELETE FROM file_chunks WHERE file_id = ANY($1::uuid[])', { bind: [ids] });
  }
}

import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Sequelize } from 'sequelize';
import { createLogger } from './logger';

const ROOT = resolve(__dirname, '../../..');
// libs/testing builds on this library, so its POSTGRES_URL cannot be imported here; the same variable and default.
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

describe('createLogger', () => {
  it('keeps its memory bounded when stdout stalls: lines are dropped, and the drop is reported once stdout catches up', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(__dirname, 'log-flood.fixture.ts')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Nobody reads stdout until the child has written all 200 MB of lines.
    const report = await new Promise<{ peakRssMb: number }>((resolveReport, reject) => {
      createInterface({ input: child.stderr }).once('line', (line) => {
        try {
          resolveReport(JSON.parse(line));
        } catch {
          reject(new Error(`unexpected stderr: ${line}`));
        }
      });
      child.once('exit', (code) => reject(new Error(`the child exited (${code}) without a report`)));
    });
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    await new Promise((resolveExit) => child.once('exit', resolveExit));

    // About 80 MB for node and tsx, plus the 16 MB of lines kept; without the bound it passed 300 MB.
    expect(report.peakRssMb).toBeLessThan(200);
    const warning = lines.map((line) => JSON.parse(line)).find((entry) => entry.droppedLines !== undefined);
    expect(warning).toMatchObject({ level: 'warn', service: 'flood', droppedLines: expect.any(Number) });
    // Every line was either written or counted as dropped.
    expect(lines.filter((line) => line.includes('"msg":"flood"')).length + warning.droppedLines).toBe(200_000);
  }, 60_000);
});

/** A logger whose lines are collected, parsed. */
function capturing() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger('test', 'info', destination);
  return { logger, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('log lines', () => {
  it('bound every string field a client could fill, and keep it well-formed', () => {
    const { logger, lines } = capturing();
    logger.info({ url: `/x/${'x'.repeat(100_000)}`, id: `a${'😀'.repeat(30)}`.slice(0, 40), short: 'plain' }, 'seen');
    const [line] = lines();
    expect((line.url as string).length).toBeLessThanOrEqual(2_000);
    expect((line.id as string).isWellFormed()).toBe(true);
    expect(line.short).toBe('plain');
  });

  it('bound the message and stack of a logged error, and log other thrown values as they are', () => {
    const { logger, lines } = capturing();
    logger.error({ err: new Error(`invalid input syntax: "${'x'.repeat(100_000)}"`) }, 'failed');
    logger.error({ err: { code: 'EWEIRD' } }, 'failed');
    const [error, other] = lines();
    expect(JSON.stringify(error).length).toBeLessThan(12_000);
    expect((error.err as { message: string }).message).toMatch(/^invalid input syntax/);
    expect(other.err).toEqual({ code: 'EWEIRD' });
  });

  it('bound everything a database error carries: the wrapped pg error (twice), the sql and its parameters', async () => {
    const sequelize = new Sequelize(`${POSTGRES_URL}/postgres`, { logging: false });
    const value = 'x'.repeat(100_000);
    const err = await sequelize.query('SELECT $1::int, $2::text', { bind: [value, value] }).catch((error: unknown) => error);
    await sequelize.close();
    const { logger, lines } = capturing();
    logger.error({ err }, 'failed');

    const [line] = lines();
    expect(JSON.stringify(line).length).toBeLessThan(40_000);
    expect(line.err).toMatchObject({
      type: 'DatabaseError',
      message: expect.stringMatching(/^invalid input syntax for type integer/),
      parent: { code: '22P02', message: expect.stringMatching(/^invalid input syntax/) },
    });
  });
});


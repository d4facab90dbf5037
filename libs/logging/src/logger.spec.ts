import { Writable } from 'node:stream';
import { createLogger } from './logger';

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
});

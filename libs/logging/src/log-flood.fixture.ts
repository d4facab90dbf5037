/**
 * Run by logger.spec.ts in a child process whose stdout nobody reads: logs
 * LINES lines of about 1 KB as fast as it can, then reports its peak resident
 * memory on stderr, and exits once stdout has taken what was kept.
 */
import { createLogger } from './logger';

const LINES = 200_000;

async function main(): Promise<void> {
  const logger = createLogger('flood', 'info');
  const filler = 'x'.repeat(1_000);
  let peakRss = 0;
  for (let line = 0; line < LINES; line += 1) {
    logger.info({ line, filler }, 'flood');
    if (line % 1_000 === 0) {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  process.stderr.write(`${JSON.stringify({ peakRssMb: Math.round(peakRss / 1_048_576) })}\n`);
}

void main();

import { createServer } from 'node:net';
import { freePort } from './resources';

describe('freePort', () => {
  it('never hands out the same port twice, so two services of one system never share one', async () => {
    // 1,000 draws from the 12,000 ports would repeat one almost surely (birthday bound) if draws were independent.
    const ports = [];
    for (let i = 0; i < 1_000; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('gives a port that can be listened on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});

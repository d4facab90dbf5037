import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { createLogger } from '@libs/logging';
import { LOGGED_URL_MAX, LOGGED_USER_AGENT_MAX, requestLog } from './request-log';

/** The request line the gateway's request log writes for one request to a bare app. */
async function requestLine(path: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'r-1';
    next();
  });
  app.use(requestLog(createLogger('gateway', 'info', destination)));
  app.use((_req, res) => void res.status(404).end());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { headers });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

describe('the request log line', () => {
  it('keeps a short URL and User-Agent as they are', async () => {
    const line = await requestLine('/api/v1/diseases?n=asthma', { 'user-agent': 'probe/1.0' });
    expect(line).toMatchObject({ requestId: 'r-1', req: { method: 'GET', url: '/api/v1/diseases?n=asthma', userAgent: 'probe/1.0' } });
  });

  it('cuts a long URL and User-Agent to their limits, marking the cut, and copies no other header', async () => {
    const line = await requestLine(`/api/v1/diseases?n=${'x'.repeat(5_000)}`, { 'user-agent': 'u'.repeat(3_000), 'x-junk': 'j'.repeat(3_000) });
    const req = line.req as { url: string; userAgent: string };
    expect(req.url).toHaveLength(LOGGED_URL_MAX);
    expect(req.url).toMatch(/^\/api\/v1\/diseases\?n=x+…$/);
    expect(req.userAgent).toHaveLength(LOGGED_USER_AGENT_MAX);
    expect(req.userAgent.endsWith('u…')).toBe(true);
    expect(JSON.stringify(line)).not.toContain('jjj');
  });
});

import { createServer } from 'node:net';
import pino from 'pino';
import { Counter } from 'prom-client';
import { metricsRegistry, startMetricsServer } from './index';

const logger = pino({ level: 'silent' });

// Not @libs/testing's freePort: that lib depends on this one, and projects must not depend in a circle.
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('startMetricsServer', () => {
  it('serves the registry in the Prometheus text format on GET /metrics, and nothing else', async () => {
    const counter = new Counter({ name: 'spec_things_total', help: 'things counted by the spec', registers: [metricsRegistry()] });
    counter.inc(3);
    const server = await startMetricsServer({ host: '127.0.0.1', port: await freePort(), logger });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      expect(text).toMatch(/^# TYPE spec_things_total counter$/m);
      expect(text).toMatch(/^spec_things_total 3$/m);
      expect(text).toMatch(/^process_cpu_seconds_total /m);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('is off with port 0', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, logger });
    expect(server.port).toBeUndefined();
    await server.close();
  });

  it('refuses to start on a port that is taken, naming it', async () => {
    const first = await startMetricsServer({ host: '127.0.0.1', port: await freePort(), logger });
    try {
      await expect(startMetricsServer({ host: '127.0.0.1', port: first.port as number, logger })).rejects.toThrow(
        new RegExp(`cannot serve metrics on port ${first.port}`),
      );
    } finally {
      await first.close();
    }
  });
});

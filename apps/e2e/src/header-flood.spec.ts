import { connect, type Socket } from 'node:net';
import { peakRssMb, startSystem, type RunningSystem } from '@libs/testing';
import { startGatewayProcess } from './gateway-process';
import { api } from './http';

const FLOOD_CONNECTIONS = 16;
const FLOOD_SECONDS = 30;
/** Just under the gateway's default header limit (16 KiB with the request line), so every request is accepted. */
const FLOOD_HEADER = `flood-${'f'.repeat(15 * 1024)}`;
const RSS_BOUND_MB = 200;

/**
 * A keep-alive connection that sends `GET /x` with one big header again as soon
 * as each answer is complete, until stopped. Resolves with the statuses seen.
 */
function floodConnection(url: string, header: string, until: Promise<void>): Promise<number[]> {
  const { hostname, port } = new URL(url);
  const request = `GET /x HTTP/1.1\r\nHost: ${hostname}\r\nX-Filler: ${header}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const statuses: number[] = [];
    let pending = '';
    let stopped = false;
    const socket: Socket = connect(Number(port), hostname, () => socket.write(request));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      pending += chunk;
      for (;;) {
        const head = /^HTTP\/1\.1 (\d{3}) [^]*?\r\n\r\n/.exec(pending);
        if (!head) return;
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head[0])?.[1] ?? 0);
        if (pending.length < head[0].length + length) return;
        statuses.push(Number(head[1]));
        pending = pending.slice(head[0].length + length);
        if (stopped) socket.end();
        else socket.write(request);
      }
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(statuses));
    void until.then(() => (stopped = true));
  });
}

/** The first answer on a raw connection to a request with one header of `headerBytes`. */
function answerToHeader(url: string, headerBytes: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nX-Filler: ${'g'.repeat(headerBytes)}\r\nConnection: close\r\n\r\n`),
    );
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
  });
}

describe('a flood of big headers (16 keep-alive connections × 15 KB) for 30 s', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    // startSystem runs the services at LOG_LEVEL=debug, the most the gateway logs.
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('is answered, logged without the headers, keeps the gateway serving others, and its RSS under 200 MB', async () => {
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const flood = Array.from({ length: FLOOD_CONNECTIONS }, () => floodConnection(system.gatewayUrl, FLOOD_HEADER, stopped));

    // Meanwhile another client keeps asking for data, one request after another.
    const others: number[] = [];
    const deadline = Date.now() + FLOOD_SECONDS * 1_000;
    while (Date.now() < deadline) {
      others.push((await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader })).status);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const peak = peakRssMb(system.pid('gateway') as number);
    stop();
    const statuses = (await Promise.all(flood)).flat();

    expect(new Set(others)).toEqual(new Set([200]));
    expect(others.length).toBeGreaterThan(10);
    expect(new Set(statuses)).toEqual(new Set([404]));
    expect(statuses.length).toBeGreaterThan(FLOOD_CONNECTIONS * 10);
    expect(peak).toBeLessThan(RSS_BOUND_MB);

    // Each flood request has its line, and no line holds the header.
    const log = system.logs('gateway');
    expect(log).not.toContain('flood-fff');
    const floodLines = log.split('\n').filter((line) => line.includes('"url":"/x"') && line.includes('"statusCode":404'));
    expect(floodLines.length).toBeGreaterThan(FLOOD_CONNECTIONS * 10);
    const line = JSON.parse(floodLines[0]);
    expect(line.req).toEqual({ method: 'GET', url: '/x', remoteAddress: '127.0.0.1' });
    expect(line.requestId).toEqual(expect.any(String));
  }, (FLOOD_SECONDS + 60) * 1_000);

  it('refuses headers over the limit with 431 problem+json and closes the connection', async () => {
    const answer = await answerToHeader(system.gatewayUrl, 17 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    expect(answer).toMatch(/"status":431/);
    expect(answer).not.toContain('ggg');
  });

  it('takes its header limit from HTTP_MAX_HEADER_BYTES', async () => {
    const gateway = await startGatewayProcess(`${system.namespace}/gateway-small-headers`, {
      DATABASE_URL: system.databaseUrl('gateway'),
      NODE_ENV: 'test',
      HTTP_MAX_HEADER_BYTES: '4096',
    });
    try {
      expect(await answerToHeader(gateway.url, 3 * 1024)).toMatch(/^HTTP\/1\.1 200 /);
      expect(await answerToHeader(gateway.url, 5 * 1024)).toMatch(/^HTTP\/1\.1 431 /);
    } finally {
      await gateway.stop();
    }
  });
});

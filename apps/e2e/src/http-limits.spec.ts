import { connect, type Socket } from 'node:net';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api } from './http';
import { scrape, total } from './metrics';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A raw connection, for what fetch refuses to send: broken headers, bodies that stall, hang-ups mid-request. */
function rawConnection(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolveOpen, reject) => {
    const socket = connect(Number(port), hostname, () => resolveOpen({ socket, received: () => data, closed }));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.once('error', reject);
    const closed = new Promise<void>((resolveClosed) => socket.once('close', () => resolveClosed()));
  });
}

/** Requests the gateway is still working on (the scrape, on the metrics port, is not one of them). */
async function requestsInFlight(system: RunningSystem): Promise<number> {
  return total(await scrape(system.metricsUrl('gateway')), 'http_requests_in_flight');
}

describe('the gateway bounds slow, stalled, abandoned and malformed requests', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ env: { gateway: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('answers a few pipelined requests, and closes a connection that pipelines more than 16 without reading', async () => {
    const few = await rawConnection(system.gatewayUrl);
    few.socket.end('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(7) + 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await few.closed;
    expect(few.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(8);

    // 1,800 requests for the 200 KB document in one write: once, this queued 350 MB of answers per connection.
    const flood = await rawConnection(system.gatewayUrl);
    flood.socket.write('GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1_800));
    await flood.closed;
    expect((flood.received().match(/HTTP\/1\.1 200 /g) ?? []).length).toBeLessThanOrEqual(16);
    expect((await api(system.gatewayUrl, '/healthz')).status).toBe(200);
  });

  it('refuses a header carrying CR or LF (header injection) with 400 problem+json, echoing nothing of it', async () => {
    // Markers no generated X-Request-Id (hex and dashes) can contain.
    for (const injected of ['xyz\rSet-Cookie: evil=1', 'xyz\nSet-Cookie: evil=1']) {
      const { socket, received, closed } = await rawConnection(system.gatewayUrl);
      socket.end(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${injected}\r\nConnection: close\r\n\r\n`);
      await closed;
      expect(received()).toMatch(/^HTTP\/1\.1 400 /);
      expect(received()).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
      expect(received()).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(received()).not.toMatch(/evil|xyz/);
    }
  });

  it('keeps no X-Request-Id that is 10 KB long, or holds encoded newlines or spaces; a plain one only as the client’s', async () => {
    for (const given of ['x'.repeat(10_240), 'abc%0d%0aSet-Cookie:%20evil=1', 'two words', 'tab\there']) {
      const response = await api(system.gatewayUrl, '/healthz', { headers: { 'x-request-id': given } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
      expect(response.headers.get('x-client-request-id')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    const plain = await api(system.gatewayUrl, '/healthz', { headers: { 'x-request-id': 'my-trace.42' } });
    expect(plain.headers.get('x-request-id')).toMatch(UUID);
    expect(plain.headers.get('x-client-request-id')).toBe('my-trace.42');
  });

  it('closes a connection whose headers dribble in too slowly (slowloris)', async () => {
    const { socket, received, closed } = await rawConnection(system.gatewayUrl);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const dribble = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
    await closed.finally(() => clearInterval(dribble));
    expect(received()).toMatch(/^HTTP\/1\.1 408 .*application\/problem\+json/s);
  });

  it('answers 408 and closes when a body stalls, and keeps serving others', async () => {
    const { socket, received, closed } = await rawConnection(system.gatewayUrl);
    // With a key: without one, the gateway answers 401 at once and never waits for the body.
    socket.write(
      `POST /api/v1/transactions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${system.keys.bursar}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"date":',
    );
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408 .*application\/problem\+json/s);
    expect((await api(system.gatewayUrl, '/healthz')).status).toBe(200);
  });

  it('lets go of a request whose client hangs up mid-body: nothing stays in flight', async () => {
    for (let i = 0; i < 5; i += 1) {
      const { socket } = await rawConnection(system.gatewayUrl);
      socket.write(
        `POST /api/v1/transactions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${system.keys.bursar}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"payee":"',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
    }
    await waitFor('abandoned requests to be released', async () => ((await requestsInFlight(system)) === 0 ? true : undefined));
    expect((await api(system.gatewayUrl, '/healthz')).status).toBe(200);
    const metrics = await scrape(system.metricsUrl('gateway'));
    expect(total(metrics, 'http_requests_total', { method: 'POST', status: '499' })).toBeGreaterThanOrEqual(5);
  });

  it('refuses a body over 1 MB with 413 problem+json before reading it all', async () => {
    const response = await api(system.gatewayUrl, '/api/v1/transactions', {
      method: 'POST',
      key: system.keys.bursar,
      rawBody: JSON.stringify({ payee: 'x'.repeat(1_100_000) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.detail).toMatch(/1048576 bytes/);
  });
});

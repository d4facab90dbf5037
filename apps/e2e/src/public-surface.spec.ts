import { connect } from 'node:net';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { GRPC_SERVICE_NAMES } from '@libs/topology';
import { api } from './http';
import { parseMetrics, total } from './metrics';

/**
 * Writes `request` on a raw connection (for what fetch will not send) and
 * resolves with everything received once the server closes the connection.
 */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
  });
}

/** The status, the headers (names in lower case) and the JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(answer: string) {
  const [head, body] = answer.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

function expectProblem(answer: string, status: number) {
  const parsed = parseAnswer(answer);
  expect(parsed.status).toBe(status);
  expect(parsed.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(parsed.headers['x-content-type-options']).toBe('nosniff');
  expect(parsed.body).toMatchObject({ status, requestId: parsed.headers['x-request-id'] });
  return parsed;
}

describe("the gateway's public surface", () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  describe('metrics', () => {
    it('are not on the public port, but on the metrics port', async () => {
      const onPublicPort = await api(system.gatewayUrl, '/metrics');
      expect(onPublicPort.status).toBe(404);
      const response = await fetch(system.metricsUrl('gateway'));
      expect(response.status).toBe(200);
      expect(total(parseMetrics(await response.text()), 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(0);
    });
  });

  describe('bodies are read only after the key check', () => {
    it('answers invalid JSON without a key with 401, not 400', async () => {
      const response = await api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', rawBody: '{"date": oops' });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });

    it('answers a 64 MB body without a key with 401 before the body is sent, and closes the connection', async () => {
      // Only the headers and 64 KB go out: the answer cannot have waited for the rest.
      const answer = await rawExchange(
        system.gatewayUrl,
        `POST /api/v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1_048_576}\r\n\r\n` +
          `{"payee":"${'x'.repeat(65_536)}`,
      );
      const { headers } = expectProblem(answer, 401);
      expect(headers.connection).toBe('close');
      expect(headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('still reads the bodies of register and login, up to 4 KB', async () => {
      const credentials = { email: 'surface@example.org', password: 'a fine password' };
      expect((await api(system.gatewayUrl, '/api/v1/auth/register', { method: 'POST', body: credentials })).status).toBe(202);
      expect((await api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: credentials })).status).toBe(200);
      const padded = await api(system.gatewayUrl, '/api/v1/auth/login', {
        method: 'POST',
        body: { ...credentials, password: 'x'.repeat(5_000) },
      });
      expect(padded.status).toBe(413);
    });
  });

  describe('/readyz', () => {
    it('tells a probe the status alone, and an admin key the check and breaker of every gRPC service', async () => {
      const probe = await api(system.gatewayUrl, '/readyz');
      expect(probe.status).toBe(200);
      expect(probe.body).toEqual({ status: 'ready' });

      const admin = await api(system.gatewayUrl, '/readyz', { key: system.keys.admin });
      const everyService = (value: string) => Object.fromEntries(GRPC_SERVICE_NAMES.map((service) => [service, value]));
      expect(admin.body).toEqual({
        status: 'ready',
        checks: { database: 'SERVING', ...everyService('SERVING') },
        // The reference service has a second client, for its catalogue.
        breakers: { ...everyService('closed'), catalogue: 'closed' },
      });
      expect((await api(system.gatewayUrl, '/readyz', { key: system.keys.reader })).status).toBe(403);
      const unknown = await api(system.gatewayUrl, '/readyz', { key: 'cfk_AAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
      expect(unknown.status).toBe(401);
      expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });

    it('names no internal address to a probe while an upstream is down', async () => {
      await system.stop('audit');
      try {
        // The checks are reused for a second: a probe sees the change in the next round.
        const probe = await waitFor('/readyz to answer 503', async () => {
          const answer = await api(system.gatewayUrl, '/readyz');
          return answer.status === 503 ? answer : undefined;
        });
        expect(probe.body).toEqual({ status: 'not ready' });
        const admin = await api(system.gatewayUrl, '/readyz', { key: system.keys.admin });
        expect(admin.body.checks.audit).toMatch(/UNREACHABLE/);
      } finally {
        await system.start('audit');
      }
    });
  });

  describe('security headers', () => {
    it('sends X-Content-Type-Options: nosniff on every kind of answer', async () => {
      const answers = await Promise.all(
        [
          ['/healthz'],
          ['/readyz'],
          ['/openapi.json'],
          ['/docs'],
          ['/docs/assets/swagger-ui.css'],
          ['/dashboard/'],
          ['/dashboard/dashboard.js'],
          ['/api/v1/changelog'],
          ['/api/v1/diseases?n=asthma', system.keys.reader],
          ['/api/v1/diseases?n=asthma'],
          ['/api/v1/transactions', system.keys.reader],
          ['/no/such/route'],
        ].map(async ([path, key]) => [path, (await api(system.gatewayUrl, path, { key, unchecked: true })).headers.get('x-content-type-options')]),
      );
      expect(answers).toEqual(answers.map(([path]) => [path, 'nosniff']));
    });
  });

  describe('what Node refuses before Express, answered as problems', () => {
    it('answers an Expect other than 100-continue with 417 problem+json', async () => {
      const answer = await rawExchange(system.gatewayUrl, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: the-moon\r\n\r\n');
      expect(parseAnswer(answer).headers.connection).toBe('close');
      expectProblem(answer, 417);
    });

    it('still meets Expect: 100-continue', async () => {
      const answer = await rawExchange(
        system.gatewayUrl,
        'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
    });

    it('answers an HTTP/1.1 request without Host with 400 problem+json, and closes', async () => {
      const answer = await rawExchange(system.gatewayUrl, 'GET /healthz HTTP/1.1\r\n\r\n');
      const { body, headers } = expectProblem(answer, 400);
      expect(body.detail).toMatch(/Host/);
      expect(headers.connection).toBe('close');
      // HTTP/1.0 has no such rule.
      expect(await rawExchange(system.gatewayUrl, 'GET /healthz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    });

    it.each([
      ['a malformed request line', 'GE T /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['an unknown HTTP version', 'GET /healthz HTTP/7.1\r\nHost: x\r\n\r\n'],
      ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ])('answers %s with 400 problem+json', async (_case, request) => {
      expectProblem(await rawExchange(system.gatewayUrl, request), 400);
    });
  });
});

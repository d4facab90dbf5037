import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { connect } from 'amqplib';
import { busTopology } from '@libs/bus';
import { AMQP_URL, freePort, signedHeaders, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { calleesOf, TOPOLOGY } from '@libs/topology';
import { api, validTransaction } from './http';
import { samples, scrape, total } from './metrics';

interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
}

/**
 * Stands in for an OpenTelemetry collector: takes OTLP/HTTP JSON exports as
 * the real one does and keeps the spans, so the test sees what each service sent.
 */
async function startCollector(): Promise<{ url: string; spans: ExportedSpan[]; server: Server }> {
  const spans: ExportedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        for (const resource of JSON.parse(body).resourceSpans ?? []) {
          const service = resource.resource.attributes.find((a: { key: string }) => a.key === 'service.name')?.value.stringValue;
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans) spans.push({ service, name: span.name, traceId: span.traceId });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, spans, server };
}

describe('metrics, tracing, compression and the changelog', () => {
  let system: RunningSystem;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeAll(async () => {
    collector = await startCollector();
    // Export every 200 ms instead of every 5 s (a standard OpenTelemetry variable), so the test waits less.
    const otlp = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' };
    system = await startSystem({ everyService: otlp });
  }, 90_000);
  afterAll(async () => {
    await system?.shutdown();
    collector?.server.close();
  });

  it('carries the trace id of an HTTP request (W3C traceparent) through gRPC and RabbitMQ into its audit entry', async () => {
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const created = await api(system.gatewayUrl, '/api/v1/transactions', {
      method: 'POST',
      key: system.keys.bursar,
      body: validTransaction(),
      headers: { traceparent },
    });
    expect(created.status).toBe(201);

    const entry = await waitFor('the audit entry', async () => {
      const { body } = await api(system.gatewayUrl, `/api/v1/audit?entityId=${created.body.id}`, { key: system.keys.admin });
      return body.entries[0];
    });
    expect(entry).toMatchObject({ action: 'transaction.created', traceId });

    // With an OTLP endpoint configured, every hop exports its span of that one trace.
    const spans = await waitFor('the spans of every hop to be exported', async () => {
      const ofTrace = collector.spans.filter((span) => span.traceId === traceId);
      const services = new Set(ofTrace.map((span) => span.service));
      return ['gateway', 'finance', 'audit', 'notifications'].every((service) => services.has(service)) ? ofTrace : undefined;
    });
    expect(spans.map(({ service, name }) => ({ service, name }))).toEqual(
      expect.arrayContaining([
        { service: 'gateway', name: 'POST /api/v1/transactions' },
        { service: 'finance', name: 'CreateTransaction' },
        { service: 'audit', name: `${system.namespace}.audit.finance-events process` },
        { service: 'notifications', name: `${system.namespace}.notifications.finance-events process` },
      ]),
    );
  });

  it('starts a new trace for a request without traceparent, and never adopts a malformed one', async () => {
    const created = await api(system.gatewayUrl, '/api/v1/transactions', {
      method: 'POST',
      key: system.keys.bursar,
      body: validTransaction(),
      headers: { traceparent: '00-not-a-trace-01' },
    });
    expect(created.status).toBe(201);
    const entry = await waitFor('the audit entry', async () => {
      const { body } = await api(system.gatewayUrl, `/api/v1/audit?entityId=${created.body.id}`, { key: system.keys.admin });
      return body.entries[0];
    });
    expect(entry.traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
  });

  it('counts and times gateway requests by route template and status, and shows upstream calls and breakers', async () => {
    await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader });
    const missing = await api(system.gatewayUrl, '/api/v1/transactions/00000000-0000-4000-8000-000000000000', {
      key: system.keys.bursar,
    });
    expect(missing.status).toBe(404);

    const metrics = await scrape(system.metricsUrl('gateway'));
    expect(total(metrics, 'http_requests_total', { method: 'GET', route: '/api/v1/diseases', status: '200' })).toBeGreaterThan(0);
    // The id is not in the label: one series per route, not per record.
    expect(total(metrics, 'http_requests_total', { route: '/api/v1/transactions/:id', status: '404' })).toBeGreaterThan(0);
    expect(samples(metrics, 'http_requests_total').some((s) => s.labels.route.includes('00000000'))).toBe(false);
    expect(total(metrics, 'http_request_duration_seconds_count', { route: '/api/v1/diseases' })).toBeGreaterThan(0);
    expect(total(metrics, 'upstream_request_duration_seconds_count', { upstream: 'reference', outcome: 'OK' })).toBeGreaterThan(0);
    expect(total(metrics, 'upstream_request_duration_seconds_count', { upstream: 'finance', outcome: 'NOT_FOUND' })).toBeGreaterThan(0);
    for (const upstream of calleesOf(TOPOLOGY, TOPOLOGY.gateway.name)) {
      expect(total(metrics, 'circuit_breaker_state', { upstream, state: 'closed' })).toBe(1);
      expect(total(metrics, 'circuit_breaker_state', { upstream, state: 'open' })).toBe(0);
    }
    expect(total(metrics, 'db_pool_max_connections')).toBeGreaterThan(0);
  });

  it('serves each service its own metrics: gRPC latency, database pool, outbox backlog', async () => {
    await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader });
    const reference = await scrape(system.metricsUrl('reference'));
    expect(total(reference, 'grpc_server_handling_seconds_count', { method: 'SearchDiseases', code: 'OK' })).toBeGreaterThan(0);
    expect(samples(reference, 'db_pool_connections').map((s) => s.labels.state).sort()).toEqual(['idle', 'in_use']);
    expect(total(reference, 'process_cpu_seconds_total')).toBeGreaterThan(0);

    const finance = await scrape(system.metricsUrl('finance'));
    expect(samples(finance, 'outbox_backlog_events')).toHaveLength(1);
    expect(total(finance, 'outbox_events_published_total')).toBeGreaterThan(0); // the earlier tests' events
  });

  it('shows the audit queue and a dead letter, read from RabbitMQ', async () => {
    const topology = busTopology(`${system.namespace}.`);
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createConfirmChannel();
      // Signed by finance, as a bug of its own would send it: a message that is not JSON, not a forgery.
      const poison = { routingKey: 'transaction.created', messageId: 'poison-1', body: Buffer.from('not json') };
      channel.publish(topology.exchange, poison.routingKey, poison.body, { messageId: poison.messageId, headers: signedHeaders(system, 'finance', poison) });
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    const audit = await waitFor('the dead letter to show in the audit metrics', async () => {
      const metrics = await scrape(system.metricsUrl('audit'));
      return total(metrics, 'audit_dead_letter_messages') === 1 ? metrics : undefined;
    });
    expect(total(audit, 'audit_messages_rejected_total')).toBe(1);
    expect(total(audit, 'audit_queue_messages')).toBeGreaterThanOrEqual(0);
    expect(total(audit, 'audit_events_stored_total', { outcome: 'stored' })).toBeGreaterThan(0);
    expect(total(audit, 'audit_event_lag_seconds_count')).toBeGreaterThan(0);
  });

  it('compresses JSON above 1 KB when the client accepts it, and leaves small answers alone', async () => {
    const large = await fetch(`${system.gatewayUrl}/api/v1/diseases?b=50`, {
      headers: { authorization: `Bearer ${system.keys.reader}`, 'accept-encoding': 'gzip' },
    });
    expect(large.status).toBe(200);
    expect(large.headers.get('content-encoding')).toBe('gzip');
    expect(((await large.json()) as { diseases: unknown[] }).diseases).toHaveLength(50);

    const small = await fetch(`${system.gatewayUrl}/healthz`, { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('logs every request as JSON with its request id and the client’s beside it, and never an API key', async () => {
    const answer = await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader, headers: { 'x-request-id': 'obs-log-1' } });
    const requestId = answer.headers.get('x-request-id');
    const lines = await waitFor('the request log line', async () => {
      const found = system.logs('gateway').split('\n').filter((line) => line.includes('"clientRequestId":"obs-log-1"'));
      return found.some((line) => line.includes('"req":')) ? found : undefined;
    });
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ service: 'gateway', level: expect.any(String), requestId });
    for (const key of Object.values(system.keys)) expect(system.logs('gateway')).not.toContain(key.slice(4));
  });

  it('serves CHANGELOG.md as JSON at /api/v1/changelog, without a key', async () => {
    const response = await api(system.gatewayUrl, '/api/v1/changelog');
    expect(response.status).toBe(200);
    const markdown = readFileSync(resolve(__dirname, '../../../CHANGELOG.md'), 'utf8');
    // An Unreleased section has no date.
    const headings = [...markdown.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map(([, version, date]) => ({
      version,
      date: date ?? null,
    }));
    expect(headings.length).toBeGreaterThan(0);
    expect(response.body.releases.map(({ version, date }: { version: string; date: string | null }) => ({ version, date }))).toEqual(
      headings,
    );
    const firstItem = /^### \w+\n\n?- (.+)$/m.exec(markdown)?.[1];
    const firstRelease = response.body.releases[0] as { changes: Record<string, string[]> };
    expect(Object.values(firstRelease.changes).flat()[0]).toContain(firstItem);
    // The API's version is the newest release's, never "Unreleased".
    const document = await api(system.gatewayUrl, '/openapi.json');
    expect(document.body.info.version).toBe(headings.find((heading) => heading.date !== null)?.version);
  });
});

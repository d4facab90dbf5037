import { createLogger } from '@libs/logging';
import { createSequelize } from '@libs/db';
import { readConfig } from '../config';
import { buildApp } from '../http/app';
import { listRoutes } from '../http/list-routes';
import { allUpstreams, connectUpstreams } from '../upstreams/upstreams';
import { buildOpenApiDocument } from './document';

// The app is built with real (unconnected) clients: building it opens no connection,
// and the route table is all this test reads.
const config = readConfig();
const logger = createLogger('gateway', 'silent');
const sequelize = createSequelize(config.DATABASE_URL, 1);
const upstreams = connectUpstreams(config, logger);
const document = buildOpenApiDocument('test');
const app = buildApp(config, logger, sequelize, upstreams, []);

afterAll(async () => {
  for (const upstream of allUpstreams(upstreams)) upstream.shutdown();
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

  it('gives every operation a unique operationId', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});

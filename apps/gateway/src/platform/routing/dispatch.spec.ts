import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import { routeTemplate } from '../observability/http-metrics';
import { groupOf, routesByPrefix, type RouteEntry } from './dispatch';

/** Answers with the route template Express matched and the parameters it parsed. */
const named: RequestHandler = (req, res) => {
  res.json({ route: routeTemplate(req), params: req.params });
};

const ROUTES: RouteEntry[] = [
  { method: 'get', path: '/healthz', handler: named },
  { method: 'get', path: '/dosages/:id', handler: named },
  // Declared parameter first: the literal is still tried before it.
  { method: 'get', path: '/api/v1/transactions/:id', handler: named },
  { method: 'get', path: '/api/v1/transactions/payments', handler: named },
  { method: 'post', path: '/api/v1/transactions', handler: named },
  { method: 'get', path: '/api/v1/drugs/:id/food-interactions', handler: named },
  { method: 'get', path: '/api/v1/drugs', handler: async () => Promise.reject(new Error('upstream down')) },
];

describe('routes dispatched by their leading segments', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(routesByPrefix(ROUTES));
    app.use((_req, res) => void res.status(404).json({ route: 'none' }));
    app.use(((error, _req, res, _next) => void res.status(500).json({ error: (error as Error).message })) as express.ErrorRequestHandler);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`${base}${path}`, { method });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('groups a template by its literal segments, up to three', () => {
    expect(groupOf('/api/v1/drugs/:id/food-interactions')).toBe('/api/v1/drugs');
    expect(groupOf('/dosages/:id')).toBe('/dosages');
    expect(groupOf('/healthz')).toBe('/healthz');
  });

  it('reaches each route, with its template and parameters, a literal segment before a parameter', async () => {
    expect(await get('/api/v1/transactions/payments')).toEqual({ status: 200, body: { route: '/api/v1/transactions/payments', params: {} } });
    expect(await get('/api/v1/transactions/t-1')).toEqual({ status: 200, body: { route: '/api/v1/transactions/:id', params: { id: 't-1' } } });
    expect((await get('/api/v1/transactions', 'POST')).body.route).toBe('/api/v1/transactions');
    expect((await get('/api/v1/drugs/7/food-interactions')).body).toEqual({ route: '/api/v1/drugs/:id/food-interactions', params: { id: '7' } });
    expect((await get('/dosages/12')).body).toEqual({ route: '/dosages/:id', params: { id: '12' } });
    expect((await get('/healthz')).body.route).toBe('/healthz');
  });

  it('matches as Express does: any case, a trailing slash', async () => {
    expect((await get('/API/V1/Transactions/payments')).body.route).toBe('/api/v1/transactions/payments');
    expect((await get('/healthz/')).body.route).toBe('/healthz');
  });

  it('passes on what no route takes, and errors to the error handler', async () => {
    expect(await get('/api/v1/nothing')).toEqual({ status: 404, body: { route: 'none' } });
    expect(await get('/api/v1/transactions', 'DELETE')).toEqual({ status: 404, body: { route: 'none' } });
    expect(await get('/')).toEqual({ status: 404, body: { route: 'none' } });
    expect(await get('/api/v1/drugs')).toEqual({ status: 500, body: { error: 'upstream down' } });
  });
});

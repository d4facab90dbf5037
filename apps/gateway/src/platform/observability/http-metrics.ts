import type { Request, RequestHandler } from 'express';
import { Counter, Gauge, Histogram, labelledChildren, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

const requestsTotal = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code',
  labelNames: ['method', 'route', 'status'],
  registers,
});

const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to the last byte of the response, by method, route template and status code',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

const inFlight = new Gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests received and not yet finished or abandoned',
  registers,
});

/**
 * The route template (/api/v1/transactions/:id), never the raw path: raw paths
 * would make one time series per id. Files served by static middleware carry
 * the label it set (staticRoute); requests nothing took share `unmatched`.
 */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  const label = req.res?.locals.routeLabel as unknown;
  return typeof label === 'string' ? label : 'unmatched';
}

/** Bounded: methods are the few Node parses, routes are templates or static trees' labels, statuses are three digits. */
const seriesOf = labelledChildren(['method', 'route', 'status'], (labels) => ({
  counter: requestsTotal.labels(labels),
  histogram: requestDuration.labels(labels),
}));

/** Labels the requests a static file tree answers (`/dashboard/*`): one series for the tree, not one per file. */
export const staticRoute =
  (label: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.routeLabel = label;
    next();
  };

/** Counts and times every request, including those that end in an error or that the client abandons. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    inFlight.inc();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      inFlight.dec();
      // A client that hung up before the answer is recorded with status 499, as nginx does.
      const status = res.writableFinished ? String(res.statusCode) : '499';
      const series = seriesOf({ method: req.method, route: routeTemplate(req), status });
      series.counter.inc();
      series.histogram.observe((performance.now() - started) / 1000);
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  };
}

import type { RequestHandler } from 'express';
import { markSpanFailed, SpanKind, startSpanFrom, withTraceContext } from '@libs/tracing';
import { routeTemplate } from './http-metrics';

/**
 * Continues the client's W3C trace (traceparent header) or starts one, and runs
 * the rest of the request inside its span, so gRPC calls carry it onwards.
 */
export function tracing(): RequestHandler {
  return (req, res, next) => {
    const { span, context } = startSpanFrom(req.method, SpanKind.SERVER, req.headers, {
      'http.request.method': req.method,
      'url.path': req.path,
    });
    res.once('close', () => {
      span.updateName(`${req.method} ${routeTemplate(req)}`);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) markSpanFailed(span, `HTTP ${res.statusCode}`);
      span.end();
    });
    withTraceContext(context, next);
  };
}

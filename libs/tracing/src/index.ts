export { initTracing, type Tracing } from './tracer-provider';
export {
  traceHeaders,
  currentTraceId,
  startSpanFrom,
  inSpan,
  withTraceContext,
  markSpanFailed,
  SpanKind,
  type Span,
} from './trace-context';

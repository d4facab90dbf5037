import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

export { SpanKind, type Span };

/** Headers, gRPC metadata or AMQP headers, as a plain record; W3C traceparent/tracestate are read from it. */
export type Carrier = Record<string, unknown>;

const tracer = () => trace.getTracer('clinical-finance');

/** The W3C trace headers of the active span, to put on an outgoing call or message. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The active trace's id (32 hex digits), if a span is active. */
export function currentTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/**
 * Starts a span whose parent comes from the caller's trace headers (a new trace
 * when there are none or they are malformed). The caller ends the span.
 */
export function startSpanFrom(
  name: string,
  kind: SpanKind,
  carrier: Carrier,
  attributes: Attributes = {},
): { span: Span; context: Context } {
  const parent = propagation.extract(context.active(), carrier);
  const span = tracer().startSpan(name, { kind, attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `work` inside a span continued from `carrier`, ending it (with an error status on failure) when work settles. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  carrier: Carrier,
  work: () => Promise<T>,
  attributes: Attributes = {},
): Promise<T> {
  const { span, context: spanContext } = startSpanFrom(name, kind, carrier, attributes);
  try {
    return await context.with(spanContext, work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** Runs `work` with `spanContext` active (for callback-style code such as Express's next()). */
export const withTraceContext = <T>(spanContext: Context, work: () => T): T => context.with(spanContext, work);

export function markSpanFailed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

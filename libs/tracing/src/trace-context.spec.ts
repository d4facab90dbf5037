import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { currentTraceId, inSpan, SpanKind, traceHeaders } from './index';

describe('W3C trace context across process boundaries', () => {
  const finished = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(finished)] });
  beforeAll(() => provider.register());
  afterAll(() => provider.shutdown());

  const incoming = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

  it('continues the caller’s trace and hands it on in the headers of outgoing calls', async () => {
    const seen = await inSpan('handle', SpanKind.SERVER, incoming, async () => ({
      traceId: currentTraceId(),
      outgoing: traceHeaders().traceparent,
    }));
    expect(seen.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    // Same trace, a new span of ours as the parent of the next hop.
    expect(seen.outgoing).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-(?!b7ad6b7169203331)[0-9a-f]{16}-01$/);
  });

  it.each([{}, { traceparent: 'garbage' }, { traceparent: '00-00000000000000000000000000000000-b7ad6b7169203331-01' }])(
    'starts a new trace when the caller sent none or a malformed one (%j)',
    async (carrier) => {
      const traceId = await inSpan('handle', SpanKind.SERVER, carrier, async () => currentTraceId());
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe('00000000000000000000000000000000');
    },
  );

  it('has no trace id and sends no headers outside a span', () => {
    expect(currentTraceId()).toBeUndefined();
    expect(traceHeaders()).toEqual({});
  });

  it('ends the span, marked failed, and passes the error on when the work fails', async () => {
    await expect(inSpan('fail', SpanKind.CONSUMER, incoming, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const span = finished.getFinishedSpans().find((s) => s.name === 'fail');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(span?.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });
});

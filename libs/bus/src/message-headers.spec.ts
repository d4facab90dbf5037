import type { MessageProperties } from 'amqplib';
import { messageHeaders, requestIdOf } from './message-headers';

const TRACE_PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('message headers', () => {
  it('carries a plain request id and a W3C traceparent', () => {
    expect(messageHeaders({ requestId: 'req-1', traceParent: TRACE_PARENT })).toEqual({
      'x-request-id': 'req-1',
      traceparent: TRACE_PARENT,
    });
  });

  it('leaves out values that are not plain rather than sending them', () => {
    expect(messageHeaders({ requestId: 'x'.repeat(100_000), traceParent: 'a\ud800\n' })).toEqual({});
    expect(messageHeaders({ requestId: 'line\nforged', traceParent: null })).toEqual({});
  });

  it('logs a delivered message under a plain request id only', () => {
    const properties = (headers: Record<string, unknown>, messageId = 'm-1') => ({ headers, messageId }) as MessageProperties;
    expect(requestIdOf(properties({ 'x-request-id': 'req-1' }))).toBe('req-1');
    expect(requestIdOf(properties({ 'x-request-id': `😀${'x'.repeat(100_000)}` }))).toBe('m-1');
    expect(requestIdOf(properties({}, 'bad\u0000id'))).toMatch(/^[0-9a-f-]{36}$/);
  });
});

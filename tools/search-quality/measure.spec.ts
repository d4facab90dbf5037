import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { measure } from './measure';

/** A stand-in for the gateway's disease search that answers each query from a script, in order. */
function scriptedGateway(answers: { status: number; body: unknown; headers?: Record<string, string> }[]): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    const answer = answers.shift() ?? { status: 500, body: { detail: 'no more answers scripted' } };
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

const query = { text: 'Asthmaa', original: 'Asthma', diseaseId: 'MESH:D001249' };

describe('measure', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('sends a search refused as too costly (429) again after its Retry-After, and counts it', async () => {
    const gateway = await scriptedGateway([
      { status: 429, headers: { 'retry-after': '0' }, body: { status: 429 } },
      { status: 200, body: { diseases: [{ Disease_ID: 'MESH:D001249' }] } },
      { status: 404, body: { status: 404 } },
    ]);
    server = gateway.server;
    const report = await measure(gateway.url, 'key', [query, { ...query, text: 'Zzzz' }]);
    expect(report).toMatchObject({ queries: 2, recallAt1: 0.5, recallAt5: 0.5, retried: 1 });
    expect(report.latenciesMs).toHaveLength(2);
    expect(report.misses).toEqual([{ query: { ...query, text: 'Zzzz' }, rank: -1 }]);
  });

  it('stops at any other answer', async () => {
    const gateway = await scriptedGateway([{ status: 503, body: { status: 503 } }]);
    server = gateway.server;
    await expect(measure(gateway.url, 'key', [query])).rejects.toThrow(/answered 503/);
  });
});

import type { handleUnaryCall } from '@grpc/grpc-js';
import { catalogueV1 } from '@libs/contracts';
import { startGrpcServer, type RunningGrpcServer } from '@libs/grpc';
import { createLogger } from '@libs/logging';
import { freePort } from '@libs/testing';
import { PremiseDirectory } from './premise-directory';

const PREMISE = { id: '00000000-0000-4000-8000-0000000000a1', code: 'A1', name: 'Clinic A1' };

/** A reference service that knows one premise, on `port`. */
function reference(port: number): Promise<RunningGrpcServer> {
  const getPremise: handleUnaryCall<catalogueV1.GetPremiseRequest, catalogueV1.GetPremiseResponse> = (_call, callback) =>
    callback(null, catalogueV1.GetPremiseResponse.fromPartial({ premise: PREMISE }));
  return startGrpcServer({
    host: '127.0.0.1',
    port,
    logger: createLogger('test', 'silent'),
    services: [{ name: 'reference.v1.CatalogueService', definition: catalogueV1.CatalogueServiceService, implementation: { getPremise } }],
  });
}

describe('PremiseDirectory', () => {
  it('waits, within its deadline, for a reference service that starts after it is asked', async () => {
    const port = await freePort();
    const directory = new PremiseDirectory(`127.0.0.1:${port}`, 10_000);
    let server: RunningGrpcServer | undefined;
    try {
      // Asked while nothing listens there: the channel's first connection fails and it backs off.
      const found = directory.find({ code: 'A1' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      server = await reference(port);
      await expect(found).resolves.toEqual(PREMISE);
    } finally {
      directory.close();
      await server?.shutdown(1_000);
    }
  });
});

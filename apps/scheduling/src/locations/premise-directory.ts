import { catalogueV1 } from '@libs/contracts';
import { callUnary, createClient, GrpcStatus, outgoingMetadata, RpcError, type ServiceError } from '@libs/grpc';

export interface Premise {
  id: string;
  code: string;
  name: string;
}

/**
 * Premises live in the reference service: scheduling asks it over gRPC whether one exists, and never reads
 * its database. It asks as nobody: reference data reads the same for every caller, and scheduling holds no key
 * that could vouch for a user (only the gateway does).
 */
export class PremiseDirectory {
  private readonly client: catalogueV1.CatalogueServiceClient;

  constructor(
    address: string,
    private readonly timeoutMs: number,
  ) {
    this.client = createClient(catalogueV1.CatalogueServiceClient, address);
  }

  /** The premise with this id (or code), or undefined if the reference service knows none. */
  async find(key: { id: string } | { code: string }, requestId?: string): Promise<Premise | undefined> {
    const request = { id: '', code: '', ...key };
    const metadata = outgoingMetadata({ requestId });
    // While the channel waits to reconnect (the reference service restarted, or started after this one), a call
    // would fail at once; it waits for the connection instead, within its deadline.
    metadata.setOptions({ waitForReady: true });
    try {
      const { premise } = await callUnary(this.client.getPremise.bind(this.client), request, { metadata, timeoutMs: this.timeoutMs });
      return premise && { id: premise.id, code: premise.code, name: premise.name };
    } catch (error) {
      if ((error as ServiceError).code === GrpcStatus.NOT_FOUND) return undefined;
      throw new RpcError(GrpcStatus.UNAVAILABLE, 'the reference service cannot say whether the premise exists; retry shortly');
    }
  }

  close(): void {
    this.client.close();
  }
}

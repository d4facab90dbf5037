import { credentials, makeGenericClientConstructor, type Client, type ServiceDefinition, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

const HealthClient = makeGenericClientConstructor(healthService as ServiceDefinition, 'Health');

type CheckMethod = (
  request: { service: string },
  options: { deadline: number },
  callback: (error: ServiceError | null, response: { status: string }) => void,
) => void;

/** Asks a server's standard grpc.health.v1 service; resolves to its status, or the error's text. */
export class HealthProbe {
  private readonly client: Client;

  constructor(address: string) {
    this.client = new HealthClient(address, credentials.createInsecure());
  }

  check(timeoutMs: number, service = ''): Promise<string> {
    const check = (this.client as unknown as { Check: CheckMethod }).Check.bind(this.client);
    return new Promise((resolve) => {
      check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) =>
        resolve(error ? `UNREACHABLE (${error.details || error.message})` : response.status),
      );
    });
  }

  close(): void {
    this.client.close();
  }
}

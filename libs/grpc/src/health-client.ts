import {
  credentials,
  makeGenericClientConstructor,
  type ChannelOptions,
  type Client,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { WITHOUT_CHANNELZ } from './channelz';

const HealthClient = makeGenericClientConstructor(healthService as ServiceDefinition, 'Health');

type CheckMethod = (
  request: { service: string },
  options: { deadline: number },
  callback: (error: ServiceError | null, response: { status: string }) => void,
) => void;

/**
 * A probe polls a server that may not listen yet (a start, a restart): it must see it as soon as it listens, not
 * after grpc-js's growing reconnect backoff (1 s, 1.6 s, 2.6 s, ... to 120 s), which held each test system's
 * start about 4 s beyond the moment its services were serving.
 */
const PROBE_RECONNECT: ChannelOptions = { 'grpc.initial_reconnect_backoff_ms': 100, 'grpc.max_reconnect_backoff_ms': 200 };

/** Asks a server's standard grpc.health.v1 service; resolves to its status, or the error's text. */
export class HealthProbe {
  private readonly client: Client;

  /** `options` tune the channel beyond the probe's own (a short reconnect backoff). */
  constructor(address: string, options: ChannelOptions = {}) {
    this.client = new HealthClient(address, credentials.createInsecure(), { ...WITHOUT_CHANNELZ, ...PROBE_RECONNECT, ...options });
  }

  check(timeoutMs: number, service = ''): Promise<string> {
    const check = (this.client as unknown as { Check: CheckMethod }).Check.bind(this.client);
    return new Promise((resolve) => {
      check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) =>
        resolve(error ? `UNREACHABLE (${error.details || error.message})` : response.status),
      );
    });
  }

  /** Polls until the server reports SERVING; rejects after timeoutMs with the last status seen. */
  async waitUntilServing(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let status = 'UNKNOWN';
    while (Date.now() < deadline) {
      status = await this.check(500);
      if (status === 'SERVING') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`not SERVING after ${timeoutMs} ms (last status: ${status})`);
  }

  close(): void {
    this.client.close();
  }
}

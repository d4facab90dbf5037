import {
  credentials,
  Metadata,
  type CallOptions,
  type ChannelCredentials,
  type ChannelOptions,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { plainRequestId } from '@libs/logging';
import { traceHeaders } from '@libs/tracing';
import type { Actor, ActorSigner, CallTarget } from './actor-token';
import { WITHOUT_CHANNELZ } from './channelz';
import { METADATA } from './metadata';

export type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

type ClientConstructor<C> = new (address: string, credentials: ChannelCredentials, options?: Partial<ChannelOptions>) => C;

/** grpc-js's own bounds on what it keeps of the calls in flight so that it can send them again: 1 MiB a call, 16 MiB a channel. */
const RETRY_BUFFER = { perCall: 1 << 20, perChannel: 1 << 24 };

export interface ClientOptions {
  /** The largest request message a call of this client sends, when it can be more than 1 MiB. */
  largestRequestBytes?: number;
}

/**
 * One long-lived channel per upstream; grpc-js reconnects it on its own. With
 * round_robin, a DNS name that resolves to several instances (docker compose
 * --scale, a headless Kubernetes service) spreads calls over all of them.
 */
export function createClient<C>(Client: ClientConstructor<C>, address: string, options: ClientOptions = {}): C {
  const perCall = Math.max(RETRY_BUFFER.perCall, options.largestRequestBytes ?? 0);
  return new Client(address, credentials.createInsecure(), {
    // A server renewing a connection (MAX_CONNECTION_AGE_MS) refuses the calls that cross its GOAWAY; grpc-js sends
    // such a call again on a new connection, but only while it still holds the whole request. A larger one failed
    // UNAVAILABLE, although the server never saw it. Two of the largest fit in the channel's buffer.
    'grpc.per_rpc_retry_buffer_size': perCall,
    'grpc.retry_buffer_size': Math.max(RETRY_BUFFER.perChannel, 2 * perCall),
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    'grpc.keepalive_time_ms': 30_000,
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 5_000,
    // A page of audit entries for bulk changes can pass grpc-js's default 4 MiB.
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    ...WITHOUT_CHANNELZ,
  });
}

/** Who acts in a call and where it goes: what the actor token is signed for. */
export interface ActingFor {
  actor: Actor;
  signer: ActorSigner;
  target: CallTarget;
}

/** Metadata for a call: request id, the acting user's token (if one acts), and the active span's W3C traceparent. */
export function outgoingMetadata(context: { requestId?: string; acting?: ActingFor }): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(traceHeaders())) metadata.set(key, value);
  // Metadata values must be printable ASCII (grpc-js throws otherwise): only a plain id is passed on.
  const requestId = plainRequestId(context.requestId);
  if (requestId) metadata.set(METADATA.requestId, requestId);
  if (context.acting) {
    const { actor, signer, target } = context.acting;
    metadata.set(METADATA.actorToken, signer.sign(actor, target));
  }
  return metadata;
}

/** The full path (/package.Service/Method) that grpc-js puts on each method of a generated client. */
export function pathOf(clientMethod: unknown): string {
  const path = (clientMethod as { path?: unknown }).path;
  if (typeof path !== 'string') throw new Error('not a method of a grpc-js client: it has no path');
  return path;
}

/** Promise form of a unary call; every call has a deadline so that none can hang. */
export function callUnary<Req, Res>(
  method: UnaryMethod<Req, Res>,
  request: Req,
  options: { metadata: Metadata; timeoutMs: number; signal?: AbortSignal; onHeaders?: (headers: Metadata) => void },
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    const call = method(request, options.metadata, { deadline: Date.now() + options.timeoutMs }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
    // The response headers (initial metadata) arrive before the answer.
    if (options.onHeaders) call.on('metadata', options.onHeaders);
    options.signal?.addEventListener('abort', () => call.cancel(), { once: true });
  });
}
